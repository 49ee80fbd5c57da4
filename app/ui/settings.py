"""Typed access to the program's settings (QSettings, an INI file in the user data folder).

One place names every key and its default, so no widget invents a key of its own.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from app import paths
from app.engine.request import DEFAULT_SEED

LANGUAGES = ("system", "en", "zh_CN")


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

    # model and device
    @property
    def model_dir(self) -> str:
        return self._get("model/dir", "")

    @model_dir.setter
    def model_dir(self, value: str) -> None:
        self.q.setValue("model/dir", value)

    @property
    def device(self) -> str:
        value = self._get("model/device", "auto")
        return value if value in ("auto", "cpu", "cuda") else "auto"

    @device.setter
    def device(self, value: str) -> None:
        self.q.setValue("model/device", value)

    # voice and parameters
    @property
    def seed(self) -> int:
        return self._get("voice/seed", DEFAULT_SEED, int)

    @seed.setter
    def seed(self, value: int) -> None:
        self.q.setValue("voice/seed", int(value))

    @property
    def speaker(self) -> str:
        return self._get("voice/speaker", "")

    @speaker.setter
    def speaker(self, value: str) -> None:
        self.q.setValue("voice/speaker", value)

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

    # audio and language
    @property
    def output_device(self) -> str:
        return self._get("audio/output_device", "")

    @output_device.setter
    def output_device(self, value: str) -> None:
        self.q.setValue("audio/output_device", value or "")

    @property
    def language(self) -> str:
        value = self._get("ui/language", "system")
        return value if value in LANGUAGES else "system"

    @language.setter
    def language(self, value: str) -> None:
        self.q.setValue("ui/language", value if value in LANGUAGES else "system")

    @property
    def first_run_done(self) -> bool:
        return self._get("ui/first_run_done", False, bool)

    @first_run_done.setter
    def first_run_done(self, value: bool) -> None:
        self.q.setValue("ui/first_run_done", bool(value))

    @property
    def last_export_dir(self) -> str:
        return self._get("export/last_dir", "")

    @last_export_dir.setter
    def last_export_dir(self, value: str) -> None:
        self.q.setValue("export/last_dir", value)
