"""A sound output that records what it is asked to play instead of playing it.

Shipped: the self-test builds the main window with it (no sound card needed). Tests and
headless benchmarks use it too. Its played position moves only when told (`advance`), as a
sound card's would, so tests drive the read-along through a stream.
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
        self.position = 0  # samples "played" of this stream, moved by advance()
        self._paused = False

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
        self.position = 0
        self._paused = False

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
        self._paused = False

    def is_active(self) -> bool:
        return self.active

    def queued_samples(self) -> int:
        return sum(len(c) for c in self.chunks)

    def advance(self, samples: int) -> int:
        """Play `samples` more (none while paused, never past what was queued); the position."""
        if not self._paused:
            self.position = min(self.position + max(0, samples), self.queued_samples())
        return self.position

    def played_samples(self) -> int:
        return self.position

    def pause(self) -> None:
        self._paused = True

    def resume(self) -> None:
        self._paused = False

    @property
    def paused(self) -> bool:
        return self._paused

    def played(self) -> np.ndarray:
        return np.concatenate(self.chunks) if self.chunks else np.zeros(0, dtype=np.float32)
