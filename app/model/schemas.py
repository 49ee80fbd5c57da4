"""Typed shapes of the model files we read back: a test model's description and the cache of
verified files. Read with a size cap; a description that does not fit is a ModelCorruptError
naming the file and the field; a cache that does not fit is ignored (it only saves time)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.core import ModelCorruptError, UnreadableFileError, first_bad_field, read_json_capped
from app.i18n import _
from app.model.dims import ModelDims, official
from app.model.files import STUDIO_CONFIG_NAME

log = logging.getLogger("chattts_studio.models")

MAX_DESCRIPTION_BYTES = 1024 * 1024
MAX_CACHE_BYTES = 4 * 1024 * 1024
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class ModelDescription(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")

    size: str = Field(default="?", max_length=40)
    dimensions: ModelDims
    spk_stat: str = Field(min_length=1, max_length=200_000)
    sha256: dict[str, Sha256] = Field(max_length=64)


def read_model_dims(folder: Path) -> ModelDims:
    """A model folder's dimensions: its test-model description's, else the official numbers."""
    path = Path(folder) / STUDIO_CONFIG_NAME
    if not path.exists():
        return official()
    return _description(path).dimensions


def read_model_description(path: Path) -> dict:
    """The test model's description as a plain dict (unknown keys dropped)."""
    return _description(path).model_dump()


def _description(path: Path) -> ModelDescription:
    try:
        data = read_json_capped(path, MAX_DESCRIPTION_BYTES, _("model description"))
    except UnreadableFileError:
        raise ModelCorruptError(
            _(
                "The model description {file} cannot be read (it is missing, damaged or too "
                "large); rebuild that test model, or remove the file if the folder holds the "
                "official weights."
            ).format(file=path)
        ) from None
    try:
        return ModelDescription.model_validate(data)
    except ValidationError as exc:
        raise ModelCorruptError(
            _(
                "The model description {file} cannot be read (its field '{field}' is not "
                "valid); rebuild that test model, or remove the file if the folder holds the "
                "official weights."
            ).format(file=path, field=first_bad_field(exc))
        ) from None


_CACHE = TypeAdapter(
    dict[str, dict[str, Annotated[list[int | str | None], Field(min_length=3, max_length=3)]]]
)


def read_verified_cache(path: Path) -> dict:
    """The record of files verified before, or {} when it is missing or does not fit."""
    if not path.exists():
        return {}
    try:
        return _CACHE.validate_python(
            read_json_capped(path, MAX_CACHE_BYTES, "verified-models cache")
        )
    except (UnreadableFileError, ValidationError) as exc:
        log.warning("ignoring the verified-models cache %s: %s", path, str(exc).splitlines()[0])
        return {}
