"""A take's audio as a FLAC blob: lossless at 24 bits, about half the size of raw samples.

What the project stores is what it gives back: `canonical()` is the audio after the round trip,
so anything computed from a fresh take (a chapter's voice reference) matches what a later
session computes from the stored one.
"""

from __future__ import annotations

import io

import numpy as np

SAMPLE_RATE = 24_000
SUBTYPE = "PCM_24"
MAX_TAKE_SECONDS = 600.0
MAX_TAKE_BYTES = 48 * 1024 * 1024  # 600 s of 24-bit mono would be 43 MB even uncompressed
HEADER_BYTES = 42  # "fLaC" + STREAMINFO block header and body


class TakeAudioError(ValueError):
    """The blob is not a take this program wrote (the caller words the sentence)."""


def encode(audio: np.ndarray) -> bytes:
    import soundfile as sf

    samples = np.clip(np.asarray(audio, dtype=np.float32).reshape(-1), -1.0, 1.0)
    if len(samples) > MAX_TAKE_SECONDS * SAMPLE_RATE:
        raise TakeAudioError(f"{len(samples)} samples is longer than {MAX_TAKE_SECONDS:.0f} s")
    buffer = io.BytesIO()
    sf.write(buffer, samples, SAMPLE_RATE, format="FLAC", subtype=SUBTYPE)
    return buffer.getvalue()


def decode(blob: bytes, expected_samples: int | None = None) -> np.ndarray:
    import soundfile as sf

    if not isinstance(blob, (bytes, bytearray, memoryview)) or len(blob) > MAX_TAKE_BYTES:
        raise TakeAudioError("not a blob of a usable size")
    if not header_ok(bytes(blob[:HEADER_BYTES]), expected_samples):
        raise TakeAudioError("not a 24 kHz mono FLAC stream")
    try:
        audio, rate = sf.read(io.BytesIO(bytes(blob)), dtype="float32", always_2d=False)
    except Exception as exc:  # libsndfile's errors have no common base class
        raise TakeAudioError(str(exc)) from None
    if rate != SAMPLE_RATE or audio.ndim != 1:
        raise TakeAudioError("not 24 kHz mono")
    if expected_samples is not None and len(audio) != expected_samples:
        raise TakeAudioError("shorter than its header says")
    if not np.all(np.isfinite(audio)):
        raise TakeAudioError("samples that are not numbers")
    return audio


def canonical(audio: np.ndarray) -> np.ndarray:
    """The audio as the project will give it back."""
    return decode(encode(audio))


def header_ok(head: bytes, expected_samples: int | None = None) -> bool:
    """A cheap check of the blob's first bytes: FLAC, 24 kHz, mono, the sample count we stored.
    Opening a large project reads only these bytes of each take."""
    if len(head) < HEADER_BYTES or head[:4] != b"fLaC" or head[4] & 0x7F != 0:
        return False
    info = head[8:HEADER_BYTES]
    rate = (info[10] << 12) | (info[11] << 4) | (info[12] >> 4)
    channels = ((info[12] >> 1) & 0x07) + 1
    total = ((info[13] & 0x0F) << 32) | int.from_bytes(info[14:18], "big")
    return (
        rate == SAMPLE_RATE
        and channels == 1
        and (expected_samples is None or total == expected_samples)
    )
