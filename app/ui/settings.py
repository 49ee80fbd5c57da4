"""Typed access to the program's settings (QSettings, an INI file in the user data folder).

One place names every key and its default, so no widget invents a key of its own.
"""

from __future__ import annotations

import json
import logging

from PySide6.QtCore import QByteArray, QSettings

from app import paths, user_settings
from app.audio import SPEED_MAX, SPEED_MIN
from app.core import DEFAULT_SEED
from app.core import DEVICE_CHOICES as DEVICES
from app.decode import Precision
from app.doctor.probes.hotkeys import DEFAULT_HOTKEY
from app.i18n import LANGUAGES as INTERFACE_LANGUAGES
from app.model import DEFAULT_SOURCE

log = logging.getLogger("chattts_studio.settings")

LANGUAGES = ("system", *INTERFACE_LANGUAGES)
MODEL_DIR_KEY = (
    "model/dir"  # the override's key (app/cli/window.py); the INI's before the shared setting
)
# The window offers automatic (fp32 on a CPU, bf16/fp16 on a GPU), the two faster,
# experimental CPU formats, and fp32 (the way out when fp16 overflows on a GPU); fp16 by name
# stays on the command line.
WINDOW_PRECISIONS = tuple(
    p.value for p in (Precision.AUTO, Precision.INT8, Precision.BF16, Precision.FP32)
)
# Closing the window while the tray icon shows: ask once, or the answer remembered.
CLOSE_ASK, CLOSE_TO_TRAY, CLOSE_QUITS = CLOSE_CHOICES = ("ask", "tray", "quit")


class _Key:
    """A typed setting: `seed = _Key("voice/seed", 2222, int)` reads and writes QSettings."""

    def __init__(self, key: str, default, kind=str):
        self.key, self.default, self.kind = key, default, kind

    def __get__(self, settings, owner=None):
        if settings is None:
            return self
        return settings._get(self.key, self.default, self.kind)

    def __set__(self, settings, value) -> None:
        settings.overrides.pop(self.key, None)
        settings.q.setValue(self.key, self.kind(value) if value is not None else self.default)


class _Choice:
    """A setting limited to `choices`; anything else (a hand-edited INI) reads as the first."""

    def __init__(self, key: str, choices: tuple[str, ...]):
        self.key, self.choices = key, choices

    def __get__(self, settings, owner=None):
        if settings is None:
            return self
        value = settings._get(self.key, self.choices[0])
        return value if value in self.choices else self.choices[0]

    def __set__(self, settings, value: str) -> None:
        settings.overrides.pop(self.key, None)
        settings.q.setValue(self.key, value if value in self.choices else self.choices[0])


class Settings:
    def __init__(self, path: str | None = None):
        target = path or str(paths.data_dir() / "settings.ini")
        self.q = QSettings(target, QSettings.Format.IniFormat)
        # This session's values from the command line (`chattts-studio --model DIR`): read
        # before the saved ones, never saved; a choice made in the window replaces them.
        self.overrides: dict[str, object] = {}
        self._adopt_saved_model_dir()

    def _get(self, key: str, default, kind=str):
        value = self.overrides.get(key, self.q.value(key, default))
        if value is None:
            return default
        try:
            if kind is bool:
                return (
                    value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
                )
            return kind(value)
        except (TypeError, ValueError):
            return default

    def sync(self) -> None:
        self.q.sync()

    # window
    @property
    def geometry(self) -> QByteArray | None:
        value = self.q.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    @geometry.setter
    def geometry(self, value: QByteArray) -> None:
        self.q.setValue("window/geometry", value)

    # The model folder is the one every part of the program reads (app/user_settings.py):
    # `--model` for this session, else the environment, else the saved choice, else the default.
    @property
    def model_dir(self) -> str:
        return str(user_settings.model_dir_choice(self.overrides.get(MODEL_DIR_KEY) or None).path)

    @model_dir.setter
    def model_dir(self, value: str) -> None:
        """Saved for the command line, the doctor and the next start; this session uses it even
        where CHATTTS_STUDIO_MODEL_DIR would win at the next start."""
        self.overrides.pop(MODEL_DIR_KEY, None)
        try:
            saved = user_settings.save_model_dir(value or None)
        except OSError as exc:  # a config folder that cannot be written: this session still uses it
            log.warning(
                "the model folder could not be saved in %s: %s", user_settings.settings_file(), exc
            )
            saved = str(value) if value else None
        if saved:
            self.overrides[MODEL_DIR_KEY] = saved

    def _adopt_saved_model_dir(self) -> None:
        """A folder the window saved in its own INI file before the shared setting existed
        moves there once (the INI key is removed, so it cannot disagree again)."""
        legacy = self.q.value(MODEL_DIR_KEY)
        if legacy is None:
            return
        if isinstance(legacy, str) and legacy and user_settings.load().model_dir is None:
            try:
                user_settings.save_model_dir(legacy)
            except (OSError, ValueError):
                return
        self.q.remove(MODEL_DIR_KEY)

    # device, voice, parameters, audio, language
    seed = _Key("voice/seed", DEFAULT_SEED, int)
    speaker = _Key("voice/speaker", "")
    output_device = _Key("audio/output_device", "")

    device = _Choice("model/device", DEVICES)
    # The decode step's number format: auto, or an experimental faster one.
    precision = _Choice("model/precision", WINDOW_PRECISIONS)

    @property
    def params(self) -> dict:
        try:
            value = json.loads(self._get("synthesis/params", "{}"))
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    @params.setter
    def params(self, value: dict) -> None:
        self.q.setValue("synthesis/params", json.dumps(value))

    language = _Choice("ui/language", LANGUAGES)

    first_run_done = _Key("ui/first_run_done", False, bool)
    download_source = _Key("download/source", DEFAULT_SOURCE.value)
    download_url = _Key("download/url", "")
    last_export_dir = _Key("export/last_dir", "")

    @property
    def playback_speed(self) -> float:
        """The speed of saved audio (Playback menu); a hand-edited value out of range is 1."""
        value = self._get("playback/speed", 1.0, float)
        return value if SPEED_MIN <= value <= SPEED_MAX else 1.0

    @playback_speed.setter
    def playback_speed(self, value: float) -> None:
        value = float(value)
        self.q.setValue("playback/speed", value if SPEED_MIN <= value <= SPEED_MAX else 1.0)

    # the speech server (Model > Speech server); a hand-edited port out of range is clamped by its box
    server_port = _Key("server/port", 8000, int)
    server_network = _Key("server/network", False, bool)
    server_key = _Key("server/key", "")

    # reading from anywhere (app/ui/anywhere.py): the tray, the global hotkey, closing to the tray
    tray_enabled = _Key("tray/enabled", False, bool)
    close_to_tray = _Choice("tray/close", CLOSE_CHOICES)
    hotkey_enabled = _Key("hotkey/enabled", False, bool)
    hotkey = _Key("hotkey/keys", DEFAULT_HOTKEY)
    hotkey_reads_selection = _Key("hotkey/selection", False, bool)
    mini_player = _Key("tray/mini_player", False, bool)  # shown while reading from the tray
