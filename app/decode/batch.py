"""A batch as the code below the scheduler sees it: its rows (sentences, each of some request),
the running-batch session that rows join and leave by, and what a decoder gives back (audio
pieces, cut notices). The scheduler forms batches and owns their sessions; decoders, FastSpeech
and the decode loop ask the session between steps."""

from __future__ import annotations

import enum
import threading
from dataclasses import dataclass

import numpy as np

from app.core import SynthesisRequest


def sentence_seed(seed: int, index: int, retry: int = 0) -> int:
    return int(np.random.SeedSequence([int(seed) & 0xFFFFFFFF, index, retry]).generate_state(1)[0])


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

    @property
    def seed(self) -> int:
        return sentence_seed(self.request.seed, self.index, self.retry)


@dataclass
class Piece:
    """Audio of batch row `row`: all of it, or one streamed piece (`final`: its last)."""

    row: int
    samples: np.ndarray
    final: bool
    cut: bool = False  # (final pieces of our loop) the row ran to the audio token limit
    vocoder_s: float = 0.0  # what the vocoder took to make it (0: not known)


class CutKind(enum.Enum):
    AUDIO_LIMIT = "audio-limit"  # the audio pass hit the token limit
    REFINE_LIMIT = "refine-limit"  # text refinement hit its length limit


@dataclass
class Cut:
    """One of batch rows `rows` was cut off (a decoder that knows which row names just it)."""

    rows: list[int]
    kind: CutKind


class BatchSession:
    """A batch while it decodes. `stop`: once set, decoding raises SynthesisCancelled within a
    step. `stream`: rows send pieces while they decode. Between steps the decoder asks
    `join(live)` for rows that join the batch there (`live`: rows still decoding; the new rows
    are numbered after those it has, in the order given) and `leave()` for the groups
    (requests) that went away: their rows stop and owe no more pieces.
    This base is a fixed batch: nothing joins or leaves."""

    def __init__(self, stop: threading.Event | None = None, stream: bool = False):
        self.stop = stop if stop is not None else threading.Event()
        self.stream = stream

    def join(self, live: int) -> list[Row]:
        return []

    def leave(self) -> set[int]:
        return set()
