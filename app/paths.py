"""Where the program keeps its files (platformdirs), overridable for tests and portable use."""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "ChatTTS Studio"
APP_AUTHOR = False  # no vendor folder level on Windows

# Set to a folder to keep every user file under it (tests, portable installs).
HOME_ENV = "CHATTTS_STUDIO_HOME"
MODEL_DIR_ENV = "CHATTTS_STUDIO_MODEL_DIR"


def _dirs():
    from platformdirs import PlatformDirs

    return PlatformDirs(APP_NAME, APP_AUTHOR, roaming=False)


def _base(kind: str) -> Path:
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / kind
    return Path(getattr(_dirs(), f"user_{kind}_dir"))


def data_dir() -> Path:
    return _base("data")


def log_dir() -> Path:
    return _base("log")


def cache_dir() -> Path:
    return _base("cache")


def config_dir() -> Path:
    return _base("config")


def default_model_dir() -> Path:
    return data_dir() / "models" / "ChatTTS"
