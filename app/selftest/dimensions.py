"""Dimensions of the random-weight test models, as `ModelDims` (model/dims.py).

`full` repeats the defaults of ChatTTS 0.2.5's `ChatTTS/config/config.py`, so a full model
has the official shapes and parameter count; `tiny` keeps every structural constraint of
the architecture (see the notes) while shrinking widths and depths so it builds and runs
in seconds on a CPU.
"""

from __future__ import annotations

from app.model import ModelDims

# Constraints the architecture imposes, which both sizes respect:
# - num_audio_tokens is 626: the DVAE's quantizer has 5**4 = 625 codes, plus one end token.
# - num_vq is 4 = G * R of the quantizer.
# - the decoder reads GPT hidden states folded in two, so decoder.idim = gpt.hidden_size / 2,
#   and a DVAE decoder's odim equals its idim (out_conv is built from idim).
# - the DVAE encoder's odim equals vq.dim and the DVAE decoder's idim is vq.dim / 2.
# - Vocos works at 24 kHz with hop 256, 100 mel bins: fixed by ChatTTS, not shrunk.
# - the speaker statistics hold 2 x hidden_size float16 values (std, then mean).

FULL: dict = {
    "gpt": {
        "hidden_size": 768,
        "intermediate_size": 3072,
        "num_attention_heads": 12,
        "num_hidden_layers": 20,
        "max_position_embeddings": 4096,
        "vocab_size": 32000,
        "num_audio_tokens": 626,
        "num_vq": 4,
        "spk_emb_dim": 192,
    },
    "decoder": {"idim": 384, "odim": 384, "hidden": 512, "n_layer": 12, "bn_dim": 128},
    "dvae": {
        "encoder": {"idim": 512, "odim": 1024, "hidden": 256, "n_layer": 12, "bn_dim": 128},
        "decoder": {"idim": 512, "odim": 512, "hidden": 256, "n_layer": 12, "bn_dim": 128},
        "vq": {"dim": 1024, "levels": [5, 5, 5, 5], "G": 2, "R": 2},
    },
    "vocos": {"dim": 512, "intermediate_dim": 1536, "num_layers": 8},
}

TINY: dict = {
    "gpt": {
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_attention_heads": 4,
        "num_hidden_layers": 2,
        "max_position_embeddings": 4096,
        "vocab_size": 256,
        "num_audio_tokens": 626,
        "num_vq": 4,
        "spk_emb_dim": 192,
    },
    "decoder": {"idim": 32, "odim": 32, "hidden": 32, "n_layer": 1, "bn_dim": 16},
    "dvae": {
        "encoder": {"idim": 64, "odim": 128, "hidden": 32, "n_layer": 1, "bn_dim": 16},
        "decoder": {"idim": 64, "odim": 64, "hidden": 32, "n_layer": 1, "bn_dim": 16},
        "vq": {"dim": 128, "levels": [5, 5, 5, 5], "G": 2, "R": 2},
    },
    "vocos": {"dim": 32, "intermediate_dim": 64, "num_layers": 1},
}

SIZES = {"tiny": TINY, "full": FULL}


def dimensions(size: str) -> ModelDims:
    try:
        numbers = SIZES[size]
    except KeyError:
        raise ValueError(f"unknown model size {size!r}; choose one of {sorted(SIZES)}") from None
    return ModelDims.model_validate(numbers)
