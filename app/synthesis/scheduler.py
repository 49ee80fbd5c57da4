"""One scheduler for every client of the loaded model: the window's Play, a narration render,
the speech server. It batches sentences of different requests together, runs interactive
requests ahead of background ones, sends each request's audio to that request only, and
cancels one request without disturbing the others.

The scheduler has no thread of its own: `run_batch()` forms one batch, decodes it and yields
(ticket, event) pairs. `Synthesizer.synthesize` drives it on the caller's thread for one
request; `Engine` drives it on its own thread for many. The batch while it decodes, and what
joins or leaves it between steps, is running_batch.py's `RunningBatch`.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Iterator

import numpy as np

from app.audio import SAMPLE_RATE
from app.core import (
    AudioChunk,
    OutOfMemoryError,
    SegmentMark,
    SynthesisCancelled,
    SynthesisRequest,
    SynthesisResult,
    is_out_of_memory,
)
from app.decode import Row
from app.synthesis import messages
from app.synthesis.running_batch import RunningBatch, in_turn
from app.synthesis.tickets import Priority, Ticket

log = logging.getLogger("chattts_studio.engine")

# The audio encoder's mel pads each end by half its 1024-sample window by reflection, which
# needs more samples than that: a first sentence of one or two tokens (256-768 samples) failed
# the whole paragraph with a PyTorch padding error.
LOCK_MIN_SAMPLES = 1024


class Scheduler:
    def __init__(self, synthesizer, max_batch: int | None = None):
        self.synth = synthesizer
        self.max_batch = max_batch  # a client's limit (serve --max-batch); None: memory decides
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._tickets: list[Ticket] = []
        self._running: RunningBatch | None = None
        self._told_cancelled: set[int] = set()
        self.cap: int | None = None  # batch limit after running out of memory

    # -- any thread ---------------------------------------------------------------------
    def add(self, request: SynthesisRequest, priority: Priority = Priority.INTERACTIVE) -> Ticket:
        ticket = Ticket(next(self._ids), request, Priority(priority))
        with self._lock:
            self._tickets.append(ticket)
            self._maybe_preempt(ticket)
        return ticket

    def cancel(self, ticket: Ticket) -> None:
        """Stop one request; a batch it shares with others goes on for them."""
        with self._lock:
            ticket.cancelled = True
            batch = self._running
            # Requests of the batch that already ended hear nothing more from it either.
            if batch is not None and all(t.cancelled or t.done for t in batch.tickets()):
                batch.stop.set()

    def cancel_all(self) -> None:
        with self._lock:
            tickets = list(self._tickets)
        for ticket in tickets:
            self.cancel(ticket)

    def has_work(self) -> bool:
        with self._lock:
            return any(not t.done for t in self._tickets)

    def _maybe_preempt(self, ticket: Ticket) -> None:
        """An interactive request stops a running background batch; its sentences go back in
        line and continue where they stopped (exact decoders), or are not yet playing."""
        batch = self._running
        if batch is None or ticket.priority != Priority.INTERACTIVE:
            return
        if any(t.priority == Priority.INTERACTIVE for t in batch.tickets()):
            return
        decoder = self.synth.decoder
        if decoder.exact_across_batches or all(t.emitted[i] == 0 for t, i in batch.members):
            batch.preempted = True
            batch.stop.set()

    # -- the driving thread ---------------------------------------------------------------
    def run_batch(self) -> Iterator[tuple[Ticket, object]]:
        """Admit new requests, decode one batch; yields (ticket, AudioChunk | SynthesisResult
        | exception). A ticket ends with its result or with one exception."""
        yield from self._admit()
        yield from self._tell_cancelled()
        with self._lock:
            batch = self._form()
            self._running = batch
        if batch is None:
            return
        try:
            yield from self._run(batch)
        finally:
            with self._lock:
                self._running = None
        yield from self._tell_cancelled()
        yield from self._release_rest(batch)

    def _admit(self) -> Iterator[tuple[Ticket, object]]:
        with self._lock:
            new = [t for t in self._tickets if not t.admitted and not t.cancelled]
        for ticket in new:
            ticket.admitted = True
            ticket.started = time.perf_counter()
            request = ticket.request
            try:
                ticket.speaker = (
                    self.synth.resolve_speaker(request)
                    if request.speaker or not request.reference
                    else None
                )
                prepared = self.synth.prepare(request.text)
            except Exception as exc:
                yield from self._end(ticket, exc)
                continue
            ticket.segments = list(prepared.segments)
            ticket.spans = [prepared.span(i) for i in range(len(ticket.segments))]
            ticket.spoken = prepared.spoken
            ticket.warnings = list(prepared.warnings)
            ticket.reference = (
                (request.reference, request.reference_text or "") if request.reference else None
            )
            ticket.emitted = [0] * len(ticket.segments)
            ticket.queue = [0]  # the rest once the first has its voice

    def _tell_cancelled(self) -> Iterator[tuple[Ticket, object]]:
        with self._lock:
            running = set(self._running.tickets()) if self._running else set()
            gone = [t for t in self._tickets if t.cancelled and not t.done and t not in running]
        for ticket in gone:
            yield from self._end(ticket, SynthesisCancelled(messages.stopped()))

    def _end(self, ticket: Ticket, outcome) -> Iterator[tuple[Ticket, object]]:
        ticket.done = True
        with self._lock:
            if ticket in self._tickets:
                self._tickets.remove(ticket)
            if not self._tickets:
                # Nothing left to do: memory freed since an out-of-memory retry may hold a
                # full batch again, so the next requests start without the cap.
                self.cap = None
        yield ticket, outcome

    def _form(self) -> RunningBatch | None:
        """The next batch: the first waiting request of the highest priority decides which
        rows fit with it (same decoder key, first sentences only with first sentences); the
        others of that priority join in turn, one sentence each, up to the batch size."""
        live = [
            t for t in self._tickets if t.admitted and not t.done and not t.cancelled and t.queue
        ]
        if not live:
            return None
        live.sort(key=lambda t: (t.priority, t.id))
        decoder = self.synth.decoder
        head = live[0]
        if any(
            not t.admitted and not t.cancelled and t.priority < head.priority for t in self._tickets
        ):
            # Added after this round's admission: it was too early to preempt anything, and a
            # batch formed now would make it wait; admit it first (the caller runs another round).
            return None
        key = decoder.batch_key(self._row(head, head.queue[0]))
        first = head.queue[0] == 0
        peers = [t for t in live if t is head or decoder.mixes_requests]
        lines = self._lines([t for t in peers if t.priority == head.priority], key, first)
        turns = in_turn(lines)
        size = decoder.batch_size([self._row(t, i) for t, i in turns])
        members = self._take(turns[: min(size, self.cap or size, self.max_batch or size)])
        capacity = decoder.capacity(self._row(*members[0]))
        return RunningBatch(
            self,
            members,
            priority=head.priority,
            key=key,
            capacity=min(capacity, self.cap or capacity, self.max_batch or capacity),
            joins=decoder.joins_running(self._row(*members[0])),
        )

    def _lines(
        self, tickets: list[Ticket], key, first: bool | None = None
    ) -> list[tuple[Ticket, list[int]]]:
        """Per ticket, its waiting sentences in order up to the first that may not share a
        batch of `key` (`first`: only first sentences, or only later ones; None: either)."""
        key_of = self.synth.decoder.batch_key
        lines = []
        for ticket in tickets:
            line = []
            for index in ticket.queue:
                if first is not None and (index == 0) != first:
                    break
                if key_of(self._row(ticket, index)) != key:
                    break
                line.append(index)
            if line:
                lines.append((ticket, line))
        return lines

    @staticmethod
    def _take(picked: list[tuple[Ticket, int]]) -> list[tuple[Ticket, int]]:
        """`picked` out of their requests' lines, a request's rows together and in order."""
        picked = sorted(picked, key=lambda m: (m[0].id, m[1]))
        for ticket, index in picked:
            ticket.queue.remove(index)
        return picked

    def _row(self, ticket: Ticket, index: int) -> Row:
        return Row(
            ticket.segments[index],
            index,
            ticket.request,
            ticket.speaker,
            ticket.reference,
            ticket.id,
        )

    def _run(self, batch: RunningBatch) -> Iterator[tuple[Ticket, object]]:
        rows = [self._row(t, i) for t, i in batch.members]
        try:
            for event in self.synth.decoder.decode(rows, batch):
                yield from batch.emit(event)
        except SynthesisCancelled:
            # Stopped for an interactive request, or for cancelled requests (whose rows the
            # requeue skips): what is left of the others goes back in line.
            if batch.preempted:
                log.info("background batch of %d stopped for an interactive request", len(rows))
            yield from self._requeue(batch)
        except Exception as exc:
            if not is_out_of_memory(exc):
                for ticket in batch.tickets():
                    if not ticket.done and not ticket.cancelled:
                        yield from self._end(ticket, exc)
                return
            self.synth.decoder.release()
            left = [m for m in batch.members if m[1] not in m[0].finished]
            if len(left) <= 1:
                error = OutOfMemoryError(messages.out_of_memory_alone(self.synth.device.device))
                error.__cause__ = exc
                for ticket in batch.tickets():
                    if not ticket.done and not ticket.cancelled:
                        yield from self._end(ticket, error)
                return
            self.cap = len(left) // 2
            log.warning(
                "out of memory with %d sentences at once; retrying with %d", len(left), self.cap
            )
            yield from self._requeue(batch)
        yield from batch.flush()

    def _requeue(self, batch: RunningBatch) -> Iterator[tuple[Ticket, object]]:
        """Put a stopped batch's unfinished sentences back in line. Where a smaller batch gives
        other low bits (a GPU), a sentence already partly played would not continue where its
        sound stopped: it ends there, and the user is told."""
        exact = self.synth.decoder.exact_across_batches
        for ticket, index in batch.members:
            if ticket.done or ticket.cancelled or index in ticket.finished:
                continue
            if not exact and ticket.emitted[index]:
                ticket.warnings.append(messages.cut_short_warning(index))
                yield from self._send(ticket, index, np.zeros(0, dtype=np.float32), True)
                continue
            ticket.queue.append(index)
            ticket.queue.sort()

    def _send(
        self,
        ticket: Ticket,
        index: int,
        samples: np.ndarray,
        final: bool,
        batch: RunningBatch | None = None,
        vocoder_s: float = 0.0,
    ):
        with self._lock:
            # `_maybe_preempt` (another thread) may stop a batch on an inexact decoder only while
            # none of it has been sent; a piece decoded after that stop must not be sent either.
            if batch is not None and batch.preempted:
                return
            ticket.emitted[index] += samples.size
            if final:
                ticket.finished.add(index)
        ticket.pieces.append(samples)
        ticket.piece_segments.append(index)
        span = ticket.spans[index] if index < len(ticket.spans) else None
        yield (
            ticket,
            AudioChunk(
                index,
                len(ticket.segments),
                samples,
                SAMPLE_RATE,
                final=final,
                vocoder_s=vocoder_s,
                span=span,
            ),
        )
        if len(ticket.finished) == len(ticket.segments):
            yield from self._end(ticket, self._result(ticket))

    def _release_rest(self, batch: RunningBatch) -> Iterator[tuple[Ticket, object]]:
        """Once a request's first sentence is done, its voice can be locked to it and the
        other sentences join batches."""
        for ticket in batch.tickets():
            if ticket.done or ticket.cancelled or ticket.rest_released or 0 not in ticket.finished:
                continue
            request = ticket.request
            if ticket.reference is None and request.voice_lock and len(ticket.segments) > 1:
                # Nothing else of this request has been decoded yet: its pieces are the first sentence's.
                audio = (
                    np.concatenate(ticket.pieces)
                    if ticket.pieces
                    else np.zeros(0, dtype=np.float32)
                )
                try:
                    if audio.size >= LOCK_MIN_SAMPLES:
                        ticket.reference = self.synth.reference_from_audio(
                            audio, ticket.segments[0]
                        )
                    else:
                        ticket.warnings.append(messages.voice_lock_too_short())
                except Exception as exc:  # out of memory on a GPU: it ends this request only
                    yield from self._end(ticket, exc)
                    continue
            ticket.rest_released = True
            ticket.queue = [i for i in range(1, len(ticket.segments)) if i not in ticket.finished]

    def _result(self, ticket: Ticket) -> SynthesisResult:
        # Sentence by sentence (a stable sort keeps each one's pieces in order), so the marks
        # below say where each lies.
        order = sorted(range(len(ticket.pieces)), key=lambda k: ticket.piece_segments[k])
        pieces = [ticket.pieces[k] for k in order]
        audio = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.float32)
        lengths = [0] * len(ticket.segments)
        for piece, index in zip(ticket.pieces, ticket.piece_segments):
            lengths[index] += piece.size
        marks, at = [], 0
        for index, length in enumerate(lengths):
            span = ticket.spans[index] if index < len(ticket.spans) else None
            marks.append(
                SegmentMark(at, at + length, *(span if span is not None else (None, None)))
            )
            at += length
        synth = self.synth
        return SynthesisResult(
            audio=audio,
            sample_rate=SAMPLE_RATE,
            device=synth.device.device,
            speaker=ticket.speaker or "",
            seed=ticket.request.seed,
            segments=len(ticket.segments),
            synth_seconds=time.perf_counter() - ticket.started,
            warnings=list(dict.fromkeys(ticket.warnings)),
            spoken_text=ticket.spoken,
            decode=synth.decode_label,
            marks=marks,
        )
