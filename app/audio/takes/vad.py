"""Speech frames of a take, by silero-vad's trained model (loaded once, on first use)."""

from __future__ import annotations

import threading
import warnings
from typing import Any

import numpy as np

from app.audio.takes.model_files import VAD_MODEL, model_file
from app.audio.takes.thresholds import VAD_FRAME, VAD_SAMPLE_RATE

_model: Any = None
_lock = threading.Lock()


def _vad() -> Any:
    global _model
    with _lock:
        if _model is None:
            import torch

            path = model_file(*VAD_MODEL)
            with warnings.catch_warnings():
                # torch.jit.load's deprecation notice: silero ships TorchScript.
                warnings.simplefilter("ignore", FutureWarning)
                _model = torch.jit.load(str(path), map_location="cpu")
            _model.eval()
        return _model


def speech_probabilities(audio16k: np.ndarray) -> np.ndarray:
    """One probability per 32 ms frame (VAD_FRAME samples at 16 kHz) that it holds speech."""
    import torch

    if len(audio16k) < VAD_FRAME:
        return np.zeros(0, dtype=np.float32)
    model = _vad()
    with _lock, torch.inference_mode():
        model.reset_states()
        probs = model.audio_forward(
            torch.from_numpy(np.ascontiguousarray(audio16k))[None], VAD_SAMPLE_RATE
        )
    return probs[0].float().numpy()
