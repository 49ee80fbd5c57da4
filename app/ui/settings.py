"""Typed access to the program's settings (QSettings, an INI file in the user data folder).

One place names every key and its default, so no widget invents a key of its own.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from app import paths
from app.engine.request import DEFAULT_SEED

LANGUAGES = ("system", "en", "zh_CN")
# The window offers automatic (fp32 on a CPU, bf16/fp16 on a GPU) and the two faster,
# experimental CPU formats; fp16 and fp32 by name stay on the command line.
WINDOW_PRECISIONS = ("auto", "int8", "bf16")


class _Key:
    """A typed setting: `seed = _Key("voice/seed", 2222, int)` reads and writes QSettings."""

    def __init__(self, key: str, default, kind=str):
        self.key, self.default, self.kind = key, default, kind

    def __get__(self, settings, owner=None):
        if settings is None:
            return self
        return settings._get(self.key, self.default, self.kind)

    def __set__(self, settings, value) -> None:
        settings.q.setValue(self.key, self.kind(value) if value is not None else self.default)


class Settings:
    def __init__(self, path: str | None = None):
        target = path or str(paths.data_dir() / "settings.ini")
        self.q = QSettings(target, QSettings.Format.IniFormat)

    def _get(self, key: str, default, kind=str):
        value = self.q.value(key, default)
        if value is None:
            return default
        try:
            if kind is bool:
                return value if isinstance(value, bool) else str(value).lower() in ("1", "true", "yes")
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

    # model, device, voice, parameters, audio, language
    model_dir = _Key("model/dir", "")
    seed = _Key("voice/seed", DEFAULT_SEED, int)
    speaker = _Key("voice/speaker", "")
    output_device = _Key("audio/output_device", "")

    @property
    def device(self) -> str:
        value = self._get("model/device", "auto")
        return value if value in ("auto", "cpu", "cuda") else "auto"

    @device.setter
    def device(self, value: str) -> None:
        self.q.setValue("model/device", value)

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

    @property
    def precision(self) -> str:
        """The decode step's number format: auto, or an experimental faster one."""
        value = self._get("model/precision", "auto")
        return value if value in WINDOW_PRECISIONS else "auto"

    @precision.setter
    def precision(self, value: str) -> None:
        self.q.setValue("model/precision", value if value in WINDOW_PRECISIONS else "auto")

    @property
    def language(self) -> str:
        value = self._get("ui/language", "system")
        return value if value in LANGUAGES else "system"

    @language.setter
    def language(self, value: str) -> None:
        self.q.setValue("ui/language", value if value in LANGUAGES else "system")

    first_run_done = _Key("ui/first_run_done", False, bool)
    download_source = _Key("download/source", "huggingface")
    download_url = _Key("download/url", "")
    last_export_dir = _Key("export/last_dir", "")
