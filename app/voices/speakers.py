"""Voices: a seed or a speaker string (base16384 text, ChatTTS's own format).

A seed maps to a speaker exactly as ChatTTS front ends do it (`torch.manual_seed(seed)`
then `Chat.sample_random_speaker()` on the CPU), so seed 2222 here is seed 2222 there on the
same weights. We draw from a private generator so the program's global RNG is untouched.
"""

from __future__ import annotations

import functools
import lzma
from typing import TypedDict

import numpy as np

from app.core import VoiceError
from app.i18n import _


# ChatTTS's own format: raw LZMA2 at its strongest preset, whose 64 MiB dictionary is what a
# decoder is told (a raw stream does not carry it).
class _LzmaArgs(TypedDict):
    format: int
    filters: list[dict[str, int]]


LZMA_ARGS = _LzmaArgs(
    format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME}]
)
# Encoding with that dictionary sets up 64 MiB of match-finder tables for 1.5 KB of input, paid
# by a request for a new seed before its first step. A dictionary at least as large as the input
# finds the same matches, so the same bytes come out (tests/engine/test_voices.py checks it
# against the strongest preset) for a fraction of the work.
_ENCODE_DICT = 1 << 20


def decode_stat(spk_stat: str) -> tuple[np.ndarray, np.ndarray]:
    """ChatTTS's speaker statistics string -> (std, mean) float16 arrays."""
    import pybase16384 as b14

    values = np.frombuffer(b14.decode_from_string(spk_stat), dtype=np.float16)
    std, mean = np.split(values.copy(), 2)
    return std, mean


def encode_speaker(embedding: np.ndarray) -> str:
    import pybase16384 as b14

    raw = np.asarray(embedding, dtype=np.float16).tobytes()
    filters = [{**LZMA_ARGS["filters"][0], "dict_size": max(_ENCODE_DICT, len(raw))}]
    return b14.encode_to_string(lzma.compress(raw, format=LZMA_ARGS["format"], filters=filters))


# The official model's speaker has 768 values (1,536 bytes, about 1,100 characters as text);
# these caps leave room for larger models and refuse a string built to expand in memory.
MAX_SPEAKER_DIMS = 8192
MAX_SPEAKER_CHARS = 24_000


def decode_speaker(speaker: str, dims: int | None = None) -> np.ndarray:
    """Speaker string -> float16 embedding; raises VoiceError with a sentence if invalid.

    Decompression stops one byte past the size a speaker can have (exactly `dims` values when
    the model is known), so a small string that would expand to gigabytes costs nothing.
    """
    import pybase16384 as b14

    text = speaker.strip() if isinstance(speaker, str) else ""
    if not text:
        raise VoiceError(
            _("The speaker string is empty; paste a whole speaker string or use a seed.")
        )
    if len(text) > MAX_SPEAKER_CHARS:
        raise VoiceError(
            _(
                "This speaker string has {count} characters, more than any ChatTTS voice "
                "({limit}); copy the right string, or use a seed."
            ).format(count=f"{len(text):,}", limit=f"{MAX_SPEAKER_CHARS:,}")
        )
    limit = 2 * (dims if dims is not None else MAX_SPEAKER_DIMS)
    try:
        decompressor = lzma.LZMADecompressor(**LZMA_ARGS)
        raw = decompressor.decompress(b14.decode_from_string(text), max_length=limit + 1)
    except Exception:
        raise VoiceError(
            _(
                "This is not a valid ChatTTS speaker string (it does not decode); copy the whole "
                "string again, or use a seed instead."
            )
        ) from None
    if len(raw) > limit or not decompressor.eof:
        raise VoiceError(
            _(
                "This speaker string holds more than {count} values, more than the model's "
                "voice has; make a new voice from a seed for this model."
            ).format(count=f"{limit // 2:,}")
        )
    if len(raw) % 2:
        raise VoiceError(_("This speaker string is damaged (odd byte count); copy it again."))
    if dims is not None and len(raw) != limit:
        raise VoiceError(
            _(
                "This speaker string holds {count} values but the model's voice has "
                "{dims}; make a new voice from a seed for this model."
            ).format(count=f"{len(raw) // 2:,}", dims=f"{dims:,}")
        )
    return np.frombuffer(raw, dtype=np.float16).copy()


@functools.lru_cache(maxsize=256)
def speaker_from_seed(seed: int, spk_stat: str) -> str:
    # Cached: a server's fixed voices ask for the same few seeds again and again.
    import torch

    std, mean = decode_stat(spk_stat)
    generator = torch.Generator(device="cpu").manual_seed(int(seed))
    noise = torch.randn(std.shape[0], generator=generator, dtype=torch.float16)
    emb = noise.mul_(torch.from_numpy(std)).add_(torch.from_numpy(mean))
    return encode_speaker(emb.numpy())


def check_speaker(speaker: str, hidden_size: int) -> str:
    """Return the cleaned speaker string if it fits a model of `hidden_size`."""
    try:
        emb = decode_speaker(speaker, dims=hidden_size)
    except VoiceError:
        emb = decode_speaker(speaker)  # a whole speaker of another size: say which size below
    if emb.shape[0] != hidden_size:
        raise VoiceError(
            _(
                "This speaker string was made for a model with {dims} voice dimensions, "
                "but the loaded model uses {model_dims}; make a new voice from a seed for this model."
            ).format(dims=emb.shape[0], model_dims=hidden_size)
        )
    if not np.all(np.isfinite(emb)):
        raise VoiceError(
            _("This speaker string holds invalid numbers; copy it again or use a seed.")
        )
    return speaker.strip()
