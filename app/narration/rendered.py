"""What export takes: each chapter's chosen takes, in order, as audio.

The project hands these to `export/`; export never reads the project itself, so it can be
tested with any audio.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RenderedSentence:
    text: str
    audio: np.ndarray  # float32, mono, at the chapter's sample rate
    start: float | None = None  # timed voice-over: where the cue starts, seconds
    end: float | None = None  # and where its slot ends
    flags: tuple[str, ...] = ()  # why the take checker flagged its take (sentences), if it did


@dataclass(frozen=True)
class RenderedChapter:
    title: str
    sentences: tuple[RenderedSentence, ...]
    sample_rate: int = 24_000
