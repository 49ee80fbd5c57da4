"""The numbers of ChatTTS's `Config` that the model's parts are built from, without ChatTTS.

The official model uses ChatTTS 0.2.5's defaults, copied into official.json (a test compares
them with ChatTTS's Config); a random-weight test model names its own dimensions, read the
way models/config.py reads them for ChatTTS.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

OFFICIAL = Path(__file__).with_name("official.json")
GPT_CONFIG_CAP = 64 * 1024


@dataclass(frozen=True)
class GptNumbers:
    hidden_size: int
    num_vq: int
    num_audio_tokens: int
    num_text_tokens: int


@dataclass(frozen=True)
class DecoderDims:
    idim: int
    odim: int
    hidden: int
    n_layer: int
    bn_dim: int


@dataclass(frozen=True)
class EncoderDims:
    """ChatTTS's DVAE as an audio encoder: its encoder net, and its grouped residual quantizer."""

    net: DecoderDims
    vq_dim: int
    levels: tuple[int, ...]
    groups: int
    residuals: int


@dataclass(frozen=True)
class VocosDims:
    dim: int
    intermediate_dim: int
    num_layers: int


@dataclass(frozen=True)
class PartsConfig:
    gpt: GptNumbers
    decoder: DecoderDims
    vocos: VocosDims
    paths: dict
    spk_stat: str
    dvae: EncoderDims


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


def parts_config(dims: dict | None = None, spk_stat: str | None = None) -> PartsConfig:
    """As `models.config.chattts_config(dims, spk_stat)`, for the parts engine/runtime builds."""
    official = json.loads(OFFICIAL.read_text(encoding="utf-8"))
    gpt, decoder, vocos = dict(official["gpt"]), dict(official["decoder"]), dict(official["vocos"])
    if dims is not None:
        g = dims["gpt"]
        gpt = {
            "hidden_size": g["hidden_size"],
            "num_vq": g["num_vq"],
            "num_audio_tokens": g["num_audio_tokens"],
            "num_text_tokens": dims.get("num_text_tokens") or gpt["num_text_tokens"],
        }
        decoder = dict(dims["decoder"])
        vocos = {k: dims["vocos"][k] for k in ("dim", "intermediate_dim", "num_layers")}
    dvae = (dims or official)["dvae"]
    vq = dvae["vq"]
    encoder = EncoderDims(
        DecoderDims(**dvae["encoder"]),
        int(vq["dim"]),
        tuple(int(x) for x in vq["levels"]),
        int(vq["G"]),
        int(vq["R"]),
    )
    return PartsConfig(
        GptNumbers(**gpt),
        DecoderDims(**decoder),
        VocosDims(**vocos),
        dict(official["paths"]),
        spk_stat if spk_stat is not None else official["spk_stat"],
        encoder,
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
