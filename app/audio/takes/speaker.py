"""Speaker embeddings by resemblyzer's trained GE2E encoder, run by a small torch module of
ours with the same mel front end.

The encoder's weights ship with us (ge2e_encoder.safetensors beside this file, taken from
resemblyzer's `pretrained.pt` by scripts/ge2e_weights.py): resemblyzer itself is no dependency,
as its webrtcvad has no Windows wheels. Ours gives resemblyzer's embeddings
(tests/engine/test_take_check_models.py compares them).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from app.audio.takes.thresholds import VAD_SAMPLE_RATE

WEIGHTS = Path(__file__).with_name("ge2e_encoder.safetensors")

# resemblyzer's hparams: 25 ms windows every 10 ms, 40 mel bands, 160-frame partials.
N_FFT = 400
HOP = 160
N_MELS = 40
PARTIAL_FRAMES = 160
PARTIALS_PER_SECOND = 1.3
MIN_COVERAGE = 0.75
# resemblyzer raises quiet speech to this level before embedding (never lowers it).
TARGET_DBFS = -30.0

_encoder: Any = None
_lock = threading.Lock()


def _build() -> Any:
    import torch
    import torchaudio.functional as F
    from safetensors.torch import load_file
    from torch import nn

    class GE2EEncoder(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(N_MELS, 256, 3, batch_first=True)
            self.linear = nn.Linear(256, 256)
            self.window = torch.hann_window(N_FFT)
            self.fbank = F.melscale_fbanks(
                N_FFT // 2 + 1,
                0.0,
                VAD_SAMPLE_RATE / 2,
                N_MELS,
                VAD_SAMPLE_RATE,
                "slaney",
                "slaney",
            )

        def mel(self, wav: torch.Tensor) -> torch.Tensor:
            spec = torch.stft(
                wav,
                N_FFT,
                HOP,
                window=self.window,
                center=True,
                pad_mode="constant",
                return_complex=True,
            )
            return (spec.abs() ** 2).T @ self.fbank  # (frames, mels)

        def forward(self, mels: torch.Tensor) -> torch.Tensor:
            _, (hidden, _) = self.lstm(mels)
            raw = torch.relu(self.linear(hidden[-1]))
            return raw / torch.norm(raw, dim=1, keepdim=True)

    model = GE2EEncoder()
    # strict: every weight of the encoder is in the file, and nothing else.
    model.load_state_dict(load_file(str(WEIGHTS)))
    return model.eval()


def _model() -> Any:
    global _encoder
    with _lock:
        if _encoder is None:
            _encoder = _build()
        return _encoder


def partial_slices(n_samples: int) -> list[slice]:
    """resemblyzer's split of an utterance into 1.6 s partials (`compute_partial_slices`)."""
    n_frames = int(np.ceil((n_samples + 1) / HOP))
    frame_step = int(np.round((VAD_SAMPLE_RATE / PARTIALS_PER_SECOND) / HOP))
    steps = max(1, n_frames - PARTIAL_FRAMES + frame_step + 1)
    slices = [slice(i, i + PARTIAL_FRAMES) for i in range(0, steps, frame_step)]
    last = slices[-1]
    coverage = (n_samples - last.start * HOP) / (PARTIAL_FRAMES * HOP)
    if coverage < MIN_COVERAGE and len(slices) > 1:
        slices = slices[:-1]
    return slices


def raise_quiet(wav: np.ndarray) -> np.ndarray:
    rms = float(np.sqrt(np.mean(np.square(wav, dtype=np.float64)))) if len(wav) else 0.0
    if rms <= 0:
        return wav
    change = TARGET_DBFS - 20 * np.log10(rms)
    return wav if change < 0 else (wav * 10 ** (change / 20)).astype(np.float32)


def embed_speech(speech16k: np.ndarray) -> np.ndarray:
    """A unit-length 256-value voice embedding of speech (silences already cut out)."""
    import torch

    wav = np.asarray(speech16k, dtype=np.float32)
    slices = partial_slices(len(wav))
    need = slices[-1].stop * HOP
    if need >= len(wav):
        wav = np.pad(wav, (0, need - len(wav)))
    model = _model()
    with _lock, torch.inference_mode():
        mel = model.mel(torch.from_numpy(wav))
        mels = torch.stack([mel[s] for s in slices])
        partials = model(mels).numpy()
    raw = partials.mean(axis=0)
    return (raw / np.linalg.norm(raw)).astype(np.float32)


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
