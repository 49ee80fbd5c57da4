"""WAV, FLAC, MP3, Ogg Vorbis and Ogg Opus through libsndfile (soundfile), with title tags.

libsndfile 1.2 here writes all five and reads them back to the sample (MP3 and Opus carry
their encoder delay, so decoders trim it). Lossless files are 16-bit PCM, as the window's WAV.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from app.audio import to_pcm16

_FORMATS = {  # ours -> (libsndfile format, subtype)
    "wav": ("WAV", "PCM_16"),
    "flac": ("FLAC", "PCM_16"),
    "mp3": ("MP3", "MPEG_LAYER_III"),
    "ogg": ("OGG", "VORBIS"),
    "opus": ("OGG", "OPUS"),
}
FORMATS = tuple(_FORMATS)
_BLOCK = 1 << 16  # samples per write, so a cancel is heard within a fraction of a second


def mp3_bitrate_range(rate: int) -> tuple[int, int]:
    """LAME's constant bitrates: MPEG-1 above 24 kHz, MPEG-2 at 16-24 kHz, MPEG-2.5 below."""
    if rate >= 32_000:
        return 32, 320
    return (8, 160) if rate >= 16_000 else (8, 64)


def _compression(
    fmt: str, rate: int, bitrate: int | None
) -> tuple[float | None, str | None, int | None]:
    """libsndfile's 0..1 compression level for a bitrate in kbit/s, as measured here: MP3
    constant bitrate maps linearly from the highest (0) to the lowest (1) of its range; Opus
    from about 256 to 6 kbit/s. Returns (level, bitrate mode, the bitrate actually used)."""
    if bitrate is None or fmt not in ("mp3", "opus"):
        return None, None, None
    if fmt == "mp3":
        lo, hi = mp3_bitrate_range(rate)
        used = min(max(bitrate, lo), hi)
        return (hi - used) / (hi - lo), "CONSTANT", used
    used = min(max(bitrate, 6), 256)
    return (256 - used) / (256 - 6), None, used


def write_sndfile(
    path: Path,
    audio: np.ndarray,
    rate: int,
    fmt: str,
    *,
    bitrate: int | None = None,
    tags: dict[str, str] | None = None,
    check: Callable[[], None] = lambda: None,
) -> int | None:
    """Write `audio` (float32 mono) to `path`; returns the bitrate used when one was asked."""
    import soundfile as sf

    container, subtype = _FORMATS[fmt]
    level, mode, used = _compression(fmt, rate, bitrate)
    data = (
        to_pcm16(audio)
        if fmt in ("wav", "flac")
        else np.clip(np.nan_to_num(np.asarray(audio, dtype=np.float32)), -1.0, 1.0)
    )
    with sf.SoundFile(
        str(path),
        "w",
        rate,
        1,
        subtype=subtype,
        format=container,
        compression_level=level,
        bitrate_mode=mode,
    ) as f:
        for key, value in (tags or {}).items():
            if value:
                setattr(f, key, value)
        for start in range(0, len(data), _BLOCK):
            check()
            f.write(data[start : start + _BLOCK])
    return used
