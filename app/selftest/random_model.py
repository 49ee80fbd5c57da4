"""Build a random-weight model with the real ChatTTS architecture, in the official layout.

Every module is ChatTTS's (or the library class ChatTTS instantiates), built from the same
`Config` the loader uses, so the folder loads through exactly the code path of the official
weights. Random weights produce noise, never speech: the folder's config file says so and
the program refuses to call the result speech.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path

from app.core import ModelKind
from app.model import MODEL_FILES, STUDIO_CONFIG_NAME, ModelDims, file_sha256
from app.selftest.dimensions import dimensions
from app.selftest.tokenizer import build_tokenizer

LLAMA_VOCAB = 32000  # LlamaConfig's default, for dimensions that do not name it


def _save_state(module, path: Path) -> None:
    from safetensors.torch import save_file

    # Parametrized and tied tensors can share storage; safetensors wants each on its own.
    state = {k: v.detach().contiguous().clone() for k, v in module.state_dict().items()}
    save_file(state, str(path))


def _speaker_stat(hidden_size: int, generator) -> str:
    import numpy as np
    import pybase16384 as b14
    import torch

    std = torch.rand(hidden_size, generator=generator) * 0.5 + 0.5
    mean = torch.randn(hidden_size, generator=generator) * 0.1
    values = torch.cat([std, mean]).to(torch.float16).numpy().astype(np.float16)
    return b14.encode_to_string(values.tobytes())


def _write_modules(root: Path, dims: ModelDims, seed: int) -> dict:
    import torch
    from ChatTTS.model.dvae import DVAE
    from ChatTTS.model.embed import Embed
    from transformers import LlamaConfig, LlamaModel
    from vocos import Vocos
    from vocos.pretrained import instantiate_class

    from app.model import chattts_config

    asset = root / "asset"
    num_text_tokens = build_tokenizer(asset / "tokenizer")
    dims = dims.model_copy(update={"num_text_tokens": num_text_tokens})
    generator = torch.Generator().manual_seed(seed)
    spk_stat = _speaker_stat(dims.gpt.hidden_size, generator)
    cfg = chattts_config(dims, spk_stat, num_text_tokens)

    torch.manual_seed(seed)
    g = cfg.gpt
    llama = LlamaModel(
        LlamaConfig(
            hidden_size=g.hidden_size,
            intermediate_size=g.intermediate_size,
            num_attention_heads=g.num_attention_heads,
            num_key_value_heads=g.num_attention_heads,
            num_hidden_layers=g.num_hidden_layers,
            max_position_embeddings=g.max_position_embeddings,
            vocab_size=dims.gpt.vocab_size or LLAMA_VOCAB,
        )
    )
    llama.save_pretrained(str(asset / "gpt"), safe_serialization=True)
    for extra in (asset / "gpt").iterdir():
        if extra.name not in ("config.json", "model.safetensors"):
            extra.unlink()

    e = cfg.embed
    _save_state(
        Embed(e.hidden_size, e.num_audio_tokens, e.num_text_tokens, e.num_vq),
        asset / "Embed.safetensors",
    )
    _save_state(
        DVAE(decoder_config=asdict(cfg.decoder), dim=cfg.decoder.idim),
        asset / "Decoder.safetensors",
    )
    _save_state(
        DVAE(
            decoder_config=asdict(cfg.dvae.decoder),
            encoder_config=asdict(cfg.dvae.encoder),
            vq_config=asdict(cfg.dvae.vq),
            dim=cfg.dvae.decoder.idim,
        ),
        asset / "DVAE.safetensors",
    )
    vocos = Vocos(
        feature_extractor=instantiate_class(args=(), init=asdict(cfg.vocos.feature_extractor)),
        backbone=instantiate_class(args=(), init=asdict(cfg.vocos.backbone)),
        head=instantiate_class(args=(), init=asdict(cfg.vocos.head)),
    )
    _save_state(vocos, asset / "Vocos.safetensors")
    return {"spk_stat": spk_stat, "dimensions": dims.model_dump()}


def build_random_model(out_dir: os.PathLike | str, size: str = "tiny", seed: int = 0) -> Path:
    """Write a complete model folder at `out_dir` (which must not hold files yet)."""
    import torch

    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty; choose a new folder for the model.")
    dims = dimensions(size)
    out.parent.mkdir(parents=True, exist_ok=True)
    # Built beside the target and renamed at the end, so an interrupted build leaves no
    # folder that looks like a model.
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    os.chmod(staging, 0o755)  # mkdtemp makes it private; a model folder is not secret
    try:
        with torch.random.fork_rng(devices=[]):
            extra = _write_modules(staging, dims, seed)
        config = {
            "format": 1,
            "kind": ModelKind.RANDOM_WEIGHTS.value,
            "size": size,
            "seed": seed,
            "note": "Random weights with the ChatTTS architecture, for tests and benchmarks. "
            "Output is noise, not speech.",
            "dimensions": extra["dimensions"],
            "spk_stat": extra["spk_stat"],
            "sha256": {rel: file_sha256(staging / rel) for rel in MODEL_FILES},
        }
        (staging / STUDIO_CONFIG_NAME).write_text(
            json.dumps(config, indent=2) + "\n", encoding="utf-8"
        )
        if out.exists():
            out.rmdir()
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out
