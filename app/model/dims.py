"""The model's dimensions, one typed `ModelDims` for every reader and builder.

The official weights use ChatTTS 0.2.5's defaults, copied into official.json (tests compare
them with ChatTTS's Config); a random-weight test model names its own in its description
(models/schemas.py reads it, `read_model_dims` picks between the two).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

OFFICIAL = Path(__file__).with_name("official.json")
Dim = Annotated[int, Field(gt=0, le=1_000_000)]


class _Dims(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class GptDims(_Dims):
    hidden_size: Dim
    intermediate_size: Dim
    num_attention_heads: Dim
    num_hidden_layers: Dim
    max_position_embeddings: Dim
    num_audio_tokens: Dim
    num_vq: Dim
    spk_emb_dim: Dim = 192
    # The Llama's own token table, which ChatTTS never reads (its Embed holds the text tokens):
    # named by the test models the builder writes, absent from the official numbers.
    vocab_size: Dim | None = None


class CoderDims(_Dims):
    """One of ChatTTS's DVAE nets (its `Decoder` config): the mel decoder, the DVAE's halves."""

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


class ModelDims(_Dims):
    gpt: GptDims
    decoder: CoderDims
    dvae: DvaeDims
    vocos: VocosDims
    num_text_tokens: Dim | None = None  # None: the official model's


class OfficialModel(ModelDims):
    """official.json: the official model's dimensions, file paths and speaker statistics."""

    num_text_tokens: Dim
    paths: dict[str, str]
    spk_stat: str


@functools.cache
def official() -> OfficialModel:
    return OfficialModel.model_validate(json.loads(OFFICIAL.read_text(encoding="utf-8")))


def text_tokens(dims: ModelDims) -> int:
    """The size of the text-token table: the model's own, else the official model's."""
    return dims.num_text_tokens or official().num_text_tokens
