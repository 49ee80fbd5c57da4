"""What the model's parts are built from, without ChatTTS: the model's dimensions
(models/dims.py), its files' paths and speaker statistics, and the Llama's numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from app.model.dims import (
    CoderDims,
    DvaeDims,
    GptDims,
    ModelDims,
    VocosDims,
    official,
    text_tokens,
)

GPT_CONFIG_CAP = 64 * 1024


@dataclass(frozen=True)
class PartsConfig:
    gpt: GptDims
    num_text_tokens: int
    decoder: CoderDims
    vocos: VocosDims
    paths: dict
    spk_stat: str
    dvae: DvaeDims


@dataclass(frozen=True)
class LlamaNumbers:
    """What the decode loop reads of the Llama's config (asset/gpt/config.json)."""

    num_hidden_layers: int
    num_attention_heads: int
    hidden_size: int
    max_position_embeddings: int
    intermediate_size: int
    rope_theta: float
    rms_norm_eps: float


def parts_config(dims: ModelDims | None = None, spk_stat: str | None = None) -> PartsConfig:
    """As `models.config.chattts_config(dims, spk_stat)`, for the parts model/runtime builds;
    `dims` None: the official model's."""
    numbers = official()
    dims = numbers if dims is None else dims
    return PartsConfig(
        gpt=dims.gpt,
        num_text_tokens=text_tokens(dims),
        decoder=dims.decoder,
        vocos=dims.vocos,
        paths=dict(numbers.paths),
        spk_stat=spk_stat if spk_stat is not None else numbers.spk_stat,
        dvae=dims.dvae,
    )


def _positive_int(data: dict, name: str) -> int:
    value = data.get(name)
    if type(value) is not int or value <= 0:
        raise ValueError(f"{name} is {value!r}")
    return value


def llama_numbers(folder: Path) -> LlamaNumbers | None:
    """The Llama's numbers from its config.json, or None where our Llama does not build it (a
    rotary scaling, head size, activation or bias other than plain Llama's, as ChatTTS's is)."""
    path = Path(folder) / "config.json"
    if path.stat().st_size > GPT_CONFIG_CAP:
        raise ValueError(f"{path} is larger than a model config")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path} does not hold an object")
    numbers = {
        name: _positive_int(data, name)
        for name in (
            "num_hidden_layers",
            "num_attention_heads",
            "hidden_size",
            "max_position_embeddings",
            "intermediate_size",
        )
    }
    # transformers 5 writes `rope_parameters`; older files a top-level rope_theta and rope_scaling.
    rope = data.get("rope_parameters") or {
        "rope_theta": data.get("rope_theta", 10000.0),
        "rope_type": "default" if data.get("rope_scaling") is None else "scaled",
    }
    heads = numbers["num_attention_heads"]
    head_dim = data.get("head_dim", numbers["hidden_size"] // heads)
    kv_heads = data.get("num_key_value_heads", heads)
    theta = rope.get("rope_theta") if isinstance(rope, dict) else None
    eps = data.get("rms_norm_eps", 1e-6)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or eps <= 0:
        raise ValueError(f"rms_norm_eps is {eps!r}")
    if (
        not isinstance(rope, dict)
        or rope.get("rope_type", "default") != "default"
        or isinstance(theta, bool)
        or not isinstance(theta, (int, float))
        or theta <= 0
        or head_dim * heads != numbers["hidden_size"]
        or kv_heads != heads
        or rope.get("partial_rotary_factor", 1.0) != 1.0
        or data.get("hidden_act", "silu") != "silu"
        or data.get("attention_bias", False)
        or data.get("mlp_bias", False)
    ):
        return None
    return LlamaNumbers(**numbers, rope_theta=float(theta), rms_norm_eps=float(eps))
