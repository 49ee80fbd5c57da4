"""Saved audio at another speed, its pitch kept: pytsmod's WSOLA (docs/reading.md says why
this library and method)."""

from __future__ import annotations

import numpy as np

SPEED_MIN, SPEED_MAX = 0.75, 2.0


def time_stretch(samples: np.ndarray, speed: float) -> np.ndarray:
    """`samples` played `speed` times as fast (0.75 to 2, bounded), pitch unchanged; float32,
    mono. pytsmod's default windows (1024 samples, hop 512) suit 24 kHz speech."""
    speed = min(max(float(speed), SPEED_MIN), SPEED_MAX)
    samples = np.asarray(samples, dtype=np.float32).reshape(-1)
    if speed == 1.0 or samples.size == 0:
        return samples
    import pytsmod

    # pytsmod's factor is the output's length over the input's.
    out = pytsmod.wsola(samples.astype(np.float64), 1.0 / speed)
    return np.asarray(out, dtype=np.float32).reshape(-1)
