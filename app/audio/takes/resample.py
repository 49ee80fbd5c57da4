"""A take at the models' 16 kHz, mono float32."""

from __future__ import annotations

import numpy as np

from app.audio.takes.thresholds import VAD_SAMPLE_RATE


def to_model_rate(audio: np.ndarray, sample_rate: int) -> np.ndarray:
    mono = np.asarray(audio, dtype=np.float32)
    if mono.ndim > 1:
        mono = mono.mean(axis=1)
    mono = np.nan_to_num(mono, nan=0.0, posinf=1.0, neginf=-1.0)
    if sample_rate == VAD_SAMPLE_RATE or len(mono) == 0:
        return np.ascontiguousarray(mono)
    import torch
    import torchaudio.functional as F

    out = F.resample(torch.from_numpy(np.ascontiguousarray(mono)), sample_rate, VAD_SAMPLE_RATE)
    return out.numpy().astype(np.float32)
