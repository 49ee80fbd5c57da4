"""The batch being decoded: the scheduler's one session with the decoder (`join`, `leave`,
`emit`), and the round-robin order in which requests' sentences fill a batch.

The scheduler (scheduler.py) forms a `RunningBatch` and passes it down through the decoder to
the loop; between decode steps the loop asks it for rows that join and requests that left, and
everything the decoder gives goes back through `emit` to the request it belongs to.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, Protocol

import numpy as np

from app.core import SynthesisCancelled
from app.decode import BatchSession, Cut, CutKind, Piece, Row
from app.synthesis import messages
from app.synthesis.tickets import Priority, Ticket

# Rows a batch takes in its life, joiners included: then it ends, and the work that waits for
# a batch to end (Engine.call, other sampling settings) gets its turn.
JOIN_LIMIT = 16


class BatchOwner(Protocol):
    """What a running batch asks of the scheduler that formed it (scheduler.py's `Scheduler`),
    named here so that this module need not import the scheduler that imports it."""

    synth: Any
    _lock: threading.Lock
    _tickets: list[Ticket]

    def _admit(self) -> Iterator[tuple[Ticket, object]]: ...
    def _release_rest(self, batch: RunningBatch) -> Iterator[tuple[Ticket, object]]: ...
    def _tell_cancelled(self) -> Iterator[tuple[Ticket, object]]: ...
    def _end(self, ticket: Ticket, outcome: object) -> Iterator[tuple[Ticket, object]]: ...
    def _lines(
        self, tickets: list[Ticket], key: object, first: bool | None = None
    ) -> list[tuple[Ticket, list[int]]]: ...
    def _take(self, picked: list[tuple[Ticket, int]]) -> list[tuple[Ticket, int]]: ...
    def _row(self, ticket: Ticket, index: int) -> Row: ...
    def _send(
        self,
        ticket: Ticket,
        index: int,
        samples: np.ndarray,
        final: bool,
        batch: RunningBatch | None = None,
        vocoder_s: float = 0.0,
    ) -> Iterator[tuple[Ticket, object]]: ...


def in_turn(lines: list[tuple[Ticket, list[int]]]) -> list[tuple[Ticket, int]]:
    """The lines' sentences one request at a time, in turn (round robin)."""
    return [
        (t, line[k])
        for k in range(max((len(line) for _t, line in lines), default=0))
        for t, line in lines
        if k < len(line)
    ]


class RunningBatch(BatchSession):
    """The batch being decoded, owned by the scheduler and passed down to the decoder: its
    rows as (ticket, sentence), the session the decoder asks between steps (`join`, `leave`),
    and `emit`, which turns what the decoder gives into what each request gets."""

    def __init__(
        self,
        scheduler: BatchOwner,
        members: list[tuple[Ticket, int]],
        priority: Priority,
        key: object,
        capacity: int,
        joins: bool,
    ):
        super().__init__(threading.Event(), scheduler.synth.stream)
        self.scheduler = scheduler
        self.members = members  # (ticket, sentence) per batch row, joined rows last
        self.produced = [0] * len(members)  # samples decoded per row in this run
        self.priority = priority
        self.key = key  # the decoder's batch key of every row
        self.capacity = capacity  # rows at once, joined rows included
        self.joins = joins  # whether rows may join it while it runs
        self.preempted = False
        self.events: list[tuple[Ticket, object]] = []  # found between steps, told at the next emit

    def tickets(self) -> list[Ticket]:
        return list(dict.fromkeys(t for t, _i in self.members))

    def join(self, live: int) -> list[Row]:
        """Waiting sentences of the batch's priority and key join it, one per request in turn,
        while it has room. New requests are admitted and requests whose first sentence ended
        release the rest of theirs meanwhile; what that ends is told at the next `emit`."""
        if not self.joins:
            return []
        scheduler = self.scheduler
        self.events.extend(scheduler._admit())
        self.events.extend(scheduler._release_rest(self))
        self.events.extend(scheduler._tell_cancelled())
        with scheduler._lock:
            room = min(self.capacity - live, JOIN_LIMIT - len(self.members))
            if room <= 0 or self.stop.is_set():
                return []
            waiting = [
                t
                for t in sorted(scheduler._tickets, key=lambda t: t.id)
                if t.admitted
                and not t.done
                and not t.cancelled
                and t.queue
                and t.priority == self.priority
            ]
            picked = scheduler._take(in_turn(scheduler._lines(waiting, self.key))[:room])
            self.members.extend(picked)
            self.produced.extend([0] * len(picked))
        return [scheduler._row(t, i) for t, i in picked]

    def leave(self) -> set[int]:
        """The requests of the batch that were cancelled or have ended."""
        with self.scheduler._lock:
            return {t.id for t in self.tickets() if t.cancelled or t.done}

    def emit(self, event: Piece | Cut) -> Iterator[tuple[Ticket, object]]:
        """What the decoder gave, as (ticket, event) for the requests, after what was found
        between steps."""
        yield from self.flush()
        if isinstance(event, Cut):
            self._note_cut(event)
        else:
            yield from self._deliver(event)
        # A request cancelled while its sentences share the batch with others ends now; the
        # batch goes on for them (its rows' audio is dropped).
        for ticket in self.tickets():
            if ticket.cancelled and not ticket.done:
                yield from self.scheduler._end(ticket, SynthesisCancelled(messages.stopped()))

    def flush(self) -> Iterator[tuple[Ticket, object]]:
        while self.events:
            yield self.events.pop(0)

    def _note_cut(self, cut: Cut) -> None:
        ticket = self.members[cut.rows[0]][0]
        indexes = [self.members[r][1] for r in cut.rows]
        first, count = min(indexes), len(indexes)
        if cut.kind is CutKind.AUDIO_LIMIT:
            limit = ticket.request.sampling.max_new_tokens
            ticket.warnings.append(messages.token_cut_warning(first, count, limit))
        else:
            ticket.warnings.append(messages.refine_cut_warning(first, count))

    def _deliver(self, piece: Piece) -> Iterator[tuple[Ticket, object]]:
        """A decoded piece to its request, less what was already sent before a retry (the
        sentence replays identically, having its own seed; a replay that is decoded whole
        where the first try streamed, or the reverse, differs only by float rounding:
        decode/vocoder_stream.py)."""
        ticket, index = self.members[piece.row]
        produced = self.produced[piece.row]
        self.produced[piece.row] += piece.samples.size
        if ticket.done or ticket.cancelled or index in ticket.finished:
            return
        skip = max(0, ticket.emitted[index] - produced)
        if skip < piece.samples.size or piece.final:
            yield from self.scheduler._send(
                ticket, index, piece.samples[skip:], piece.final, self, piece.vocoder_s
            )
