"""A sound output that records what it is asked to play instead of playing it.

Shipped: the self-test builds the main window with it (no sound card needed). Tests and
headless benchmarks use it too.
"""

from __future__ import annotations

import numpy as np

from app.audio import AudioOutput


class FakeOutput(AudioOutput):
    def __init__(self, problem: str | None = None):
        self.problem = problem
        self.sample_rate: int | None = None
        self.chunks: list[np.ndarray] = []
        self.segments: list[tuple[int, bool]] = []  # (segment, final) of each chunk
        self.vocoder_seconds: list[float] = []  # what the producer reported for each
        self.starts = 0
        self.stops = 0
        self.ended = False
        self.active = False

    def start(self, sample_rate: int) -> None:
        if self.problem:
            return
        self.sample_rate = sample_rate
        self.chunks = []
        self.segments = []
        self.vocoder_seconds = []
        self.starts += 1
        self.ended = False
        self.active = True

    def enqueue(
        self, samples: np.ndarray, segment: int = 0, final: bool = False, vocoder_s: float = 0.0
    ) -> None:
        if self.active:
            self.chunks.append(np.asarray(samples, dtype=np.float32).copy())
            self.segments.append((segment, final))
            self.vocoder_seconds.append(vocoder_s)

    def end_stream(self) -> None:
        self.ended = True
        self.active = False

    def stop(self) -> None:
        self.stops += 1
        self.active = False

    def is_active(self) -> bool:
        return self.active

    def played(self) -> np.ndarray:
        return np.concatenate(self.chunks) if self.chunks else np.zeros(0, dtype=np.float32)
