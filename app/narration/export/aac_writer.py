"""M4A and M4B (AAC in MP4) with chapter marks and a title, through PyAV (FFmpeg).

Frames carry explicit timestamps so the encoder's priming samples get an edit list and
decoders start at the first sample of the narration; chapter marks then fall where the
chapters are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np

DEFAULT_BITRATE = 64  # kbit/s: mono speech in AAC-LC
# FFmpeg's "fast" AAC coder, not its default ("twoloop"), which on a slow machine encodes a book
# slower than it plays (docs/design/constants.md#aac-coder).
_CODER = {"aac_coder": "fast"}
_FRAME = 1 << 14  # samples per frame handed to the encoder


def write_aac(
    path: Path,
    audio: np.ndarray,
    rate: int,
    fmt: str,
    *,
    chapters: Sequence[tuple[str, int, int]] = (),
    bitrate: int | None = None,
    tags: dict[str, str] | None = None,
    check: Callable[[], None] = lambda: None,
) -> int:
    """`chapters`: (title, start sample, end sample). Returns the bitrate used (kbit/s)."""
    import av

    used = bitrate or DEFAULT_BITRATE
    options = {"brand": "M4B "} if fmt == "m4b" else {}
    samples = np.clip(np.nan_to_num(np.asarray(audio, dtype=np.float32)), -1.0, 1.0)
    with av.open(str(path), "w", format="ipod", options=options) as out:
        for key, value in (tags or {}).items():
            if value:
                out.metadata[key] = value
        stream = out.add_stream("aac", rate=rate, options=_CODER)
        stream.layout = "mono"
        stream.bit_rate = used * 1000
        if chapters:
            out.set_chapters(
                [
                    {
                        "id": n + 1,
                        "start": start,
                        "end": end,
                        "time_base": Fraction(1, rate),
                        "metadata": {"title": title},
                    }
                    for n, (title, start, end) in enumerate(chapters)
                ]
            )
        for start in range(0, len(samples), _FRAME):
            check()
            frame = av.AudioFrame.from_ndarray(
                samples[None, start : start + _FRAME], format="flt", layout="mono"
            )
            frame.sample_rate = rate
            frame.pts = start
            frame.time_base = Fraction(1, rate)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return used
