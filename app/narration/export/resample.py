"""Sample-rate conversion for export (chapters of different rates in one file, Opus's rates).

Polyphase filtering (scipy) by the exact ratio of the two rates: no drift over an hour, and
the length is always ceil(n * out / in), so positions computed after it are exact.
"""

from __future__ import annotations

from math import gcd

import numpy as np

# The rates each lossy codec can carry; any other rate is converted to 48 kHz.
OPUS_RATES = (8_000, 12_000, 16_000, 24_000, 48_000)
MP3_RATES = (8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000)
AAC_RATES = MP3_RATES + (7_350, 64_000, 88_200, 96_000)
_RATES = {"opus": OPUS_RATES, "mp3": MP3_RATES, "m4a": AAC_RATES, "m4b": AAC_RATES}


def resample(audio: np.ndarray, rate_in: int, rate_out: int) -> np.ndarray:
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if rate_in == rate_out or audio.size == 0:
        return audio
    from scipy.signal import resample_poly

    g = gcd(rate_in, rate_out)
    return resample_poly(audio, rate_out // g, rate_in // g).astype(np.float32)


def output_rate(fmt: str, rate: int) -> int:
    if fmt in _RATES and rate not in _RATES[fmt]:
        return 48_000
    return rate
