"""The settings every part of the program reads alike (the window, every command, the speech
server, narration, the doctor): a small JSON file in the user's config folder, Qt-free.

The window's own settings (geometry, voice, parameters) stay in its QSettings file; what the
command line must agree with lives here. Today that is the model folder, found in this order:
`--model` > CHATTTS_STUDIO_MODEL_DIR > the folder saved here (the window's choice) > the
default. A folder chosen in the window and not seen by `synth`, `doctor` and `models status`
was a first-week complaint (tests/test_user_settings.py).

The file is hostile until parsed: a size cap, a schema, a field that does not fit is ignored
alone; it is written to a temporary name and renamed, and keys this version does not know are
kept.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app import paths
from app.atomic import write_json_atomic

log = logging.getLogger("chattts_studio.settings")

SETTINGS_NAME = "settings.json"
MAX_BYTES = 64 * 1024
FolderName = Annotated[str, Field(min_length=1, max_length=4096, pattern=r"^[^\x00]*$")]


class SharedSettings(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    model_dir: FolderName | None = None


class ModelDirSource(StrEnum):
    OPTION = "option"  # --model
    ENVIRONMENT = "environment"  # CHATTTS_STUDIO_MODEL_DIR
    SAVED = "saved"  # chosen in the window, saved in settings_file()
    DEFAULT = "default"


@dataclass(frozen=True)
class ModelDirChoice:
    path: Path
    source: ModelDirSource


def settings_file() -> Path:
    return paths.config_dir() / SETTINGS_NAME


def _raw() -> dict:
    """The file's object, or {} when it is missing, too large, not JSON or not an object."""
    path = settings_file()
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        log.warning("the settings file %s cannot be read: %s", path, exc)
        return {}
    if len(data) > MAX_BYTES:
        log.warning(
            "the settings file %s is larger than %d bytes; it was not read", path, MAX_BYTES
        )
        return {}
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        log.warning("the settings file %s is not valid JSON; it was not used", path)
        return {}
    return value if isinstance(value, dict) else {}


def load() -> SharedSettings:
    """The saved settings; a field that does not fit its schema reads as unset, the rest loads."""
    raw = _raw()
    fields = {}
    for name in SharedSettings.model_fields:
        if name not in raw:
            continue
        try:
            SharedSettings.model_validate({name: raw[name]})
        except ValidationError:
            log.warning("the setting %r in %s is not valid; it was ignored", name, settings_file())
            continue
        fields[name] = raw[name]
    return SharedSettings.model_validate(fields)


def save_model_dir(folder: os.PathLike | str | None) -> str | None:
    """Save the model folder (None or "": back to the default) for every part of the program;
    the folder as saved (absolute)."""
    value = str(Path(folder).expanduser().resolve()) if folder else None
    if value is not None:
        SharedSettings.model_validate({"model_dir": value})
    raw = _raw()
    if value is None:
        raw.pop("model_dir", None)
    else:
        raw["model_dir"] = value
    write_json_atomic(settings_file(), raw)
    return value


def model_dir_choice(
    explicit: os.PathLike | str | None = None, environ=os.environ
) -> ModelDirChoice:
    """The model folder and what chose it."""
    if explicit:
        return ModelDirChoice(Path(explicit).expanduser(), ModelDirSource.OPTION)
    env = environ.get(paths.MODEL_DIR_ENV)
    if env:
        return ModelDirChoice(Path(env).expanduser(), ModelDirSource.ENVIRONMENT)
    saved = load().model_dir
    # Only an absolute folder is used: the window saves one, and a hand-written relative one
    # would name a different folder from every working folder (tests/test_user_settings.py).
    if saved and Path(saved).expanduser().is_absolute():
        return ModelDirChoice(Path(saved).expanduser(), ModelDirSource.SAVED)
    if saved:
        log.warning(
            "the model folder %r in %s is not absolute; it was ignored", saved, settings_file()
        )
    return ModelDirChoice(paths.default_model_dir(), ModelDirSource.DEFAULT)


def model_dir(explicit: str | os.PathLike | None = None) -> Path:
    """The model folder: an explicit choice, else the environment, else the folder saved in
    the shared settings, else the default."""
    return model_dir_choice(explicit).path
