"""Typed shapes of the model files we read back: a test model's description and the cache of
verified files. Read with a size cap; a description that does not fit is a ModelCorruptError
naming the file and the field; a cache that does not fit is ignored (it only saves time)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from app.engine.errors import ModelCorruptError, UnreadableFileError
from app.engine.safe_read import first_bad_field, read_json_capped
from app.i18n import _

log = logging.getLogger("chattts_studio.models")

MAX_DESCRIPTION_BYTES = 1024 * 1024
MAX_CACHE_BYTES = 4 * 1024 * 1024
Dim = Annotated[int, Field(gt=0, le=1_000_000)]
Sha256 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class _Dims(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class GptDims(_Dims):
    hidden_size: Dim
    intermediate_size: Dim
    num_attention_heads: Dim
    num_hidden_layers: Dim
    max_position_embeddings: Dim
    num_audio_tokens: Dim
    num_vq: Dim
    spk_emb_dim: Dim = 192


class CoderDims(_Dims):
    idim: Dim
    odim: Dim
    hidden: Dim
    n_layer: Dim
    bn_dim: Dim


class VqDims(_Dims):
    dim: Dim
    levels: list[Annotated[int, Field(ge=2, le=1_000_000)]] = Field(
        min_length=1, max_length=16
    )  # 1 divides by 0
    G: Dim
    R: Dim


class DvaeDims(_Dims):
    encoder: CoderDims
    decoder: CoderDims
    vq: VqDims


class VocosDims(_Dims):
    dim: Dim
    intermediate_dim: Dim
    num_layers: Dim


class Dimensions(_Dims):
    gpt: GptDims
    decoder: CoderDims
    dvae: DvaeDims
    vocos: VocosDims
    num_text_tokens: Dim | None = None


class ModelDescription(_Dims):
    size: str = Field(default="?", max_length=40)
    dimensions: Dimensions
    spk_stat: str = Field(min_length=1, max_length=200_000)
    sha256: dict[str, Sha256] = Field(max_length=64)


def read_model_description(path: Path) -> dict:
    """The test model's description as a plain dict (unknown keys dropped)."""
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
        return ModelDescription.model_validate(data).model_dump()
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
