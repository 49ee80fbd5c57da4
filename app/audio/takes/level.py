"""Clipping and loudness of a take (plain arithmetic, no model)."""

from __future__ import annotations

import numpy as np

from app.audio.takes.thresholds import CLIP_LEVEL


def clipped_share(audio: np.ndarray) -> float:
    """The share of samples at full scale, counted at the take's own rate (resampling smooths
    the flat tops away)."""
    if len(audio) == 0:
        return 0.0
    return float(np.count_nonzero(np.abs(audio) >= CLIP_LEVEL)) / len(audio)


def dbfs(samples: np.ndarray) -> float | None:
    if len(samples) == 0:
        return None
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64))))
    return 20 * float(np.log10(rms)) if rms > 0 else -120.0
