"""What a decoder is given (rows: sentences, each of some request) and what it gives back."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from app.engine.request import SynthesisRequest


@dataclass(frozen=True)
class Row:
    """One sentence of one request. `group` tells requests apart inside a batch; `index` is
    the sentence's place in its request and, with the request's seed and `retry`, what its
    random draws come from, so it decodes the same whatever it shares a batch with."""

    text: str
    index: int
    request: SynthesisRequest
    speaker: str | None
    reference: tuple[str, str] | None
    group: int
    retry: int = 0


@dataclass
class Piece:
    """Audio of batch row `row`: all of it, or one streamed piece (`final`: its last)."""

    row: int
    samples: np.ndarray
    final: bool
    vocoder_s: float = 0.0  # what the vocoder took to make it (0: not known)


class CutKind(enum.Enum):
    AUDIO_LIMIT = "audio-limit"  # the audio pass hit the token limit
    REFINE_LIMIT = "refine-limit"  # text refinement hit its length limit


@dataclass
class Cut:
    """One of batch rows `rows` was cut off (a decoder that knows which row names just it)."""

    rows: list[int]
    kind: CutKind
