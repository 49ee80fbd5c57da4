"""The scheduler's records (synthesis/scheduler.py): a request's priority and its ticket (what
has been decoded of it so far)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from app.core import SynthesisRequest


class Priority(enum.IntEnum):
    INTERACTIVE = 0  # someone is waiting to hear it (Play)
    BACKGROUND = 1  # renders and batch jobs: they yield to interactive requests


@dataclass(eq=False)
class Ticket:
    """A request inside the scheduler, and what has been decoded of it so far."""

    id: int
    request: SynthesisRequest
    priority: Priority
    cancelled: bool = False
    done: bool = False
    admitted: bool = False
    segments: list[str] = field(default_factory=list)
    spans: list[tuple[int, int] | None] = field(default_factory=list)  # in the user's text
    spoken: str = ""
    speaker: str | None = None
    reference: tuple[str, str] | None = None
    queue: list[int] = field(default_factory=list)  # sentences waiting for a batch, in order
    emitted: list[int] = field(default_factory=list)  # samples already sent, per sentence
    finished: set[int] = field(default_factory=set)  # sentences whose final piece was sent
    pieces: list[np.ndarray] = field(default_factory=list)
    piece_segments: list[int] = field(default_factory=list)  # the sentence of each piece
    warnings: list[str] = field(default_factory=list)
    started: float = 0.0
    rest_released: bool = False  # sentences after the first may be batched
