"""The engine: one thread that owns the loaded model and serves every client through the
scheduler. A client submits a request and iterates its Job: AudioChunks as they are decoded,
then the SynthesisResult; an error or a cancel ends the iteration with its exception.

Load the model on the engine's own thread (`Engine.loading`) where you can. PyTorch's CPU
kernels run in OpenMP thread pools, one per thread that has used them, and a pool lives as
long as its thread. A loader thread that stays alive (the window's worker, a command's main
thread) keeps its pool beside the engine's, more pool threads than cores, and OpenMP then
stops spinning and sleeps between kernels, which slows every decode (bench/engine_thread.py;
figures: docs/design/constants.md#load-on-the-engines-thread).

    engine = Engine.loading(synthesizer)  # loaded here, on the engine's thread
    engine = Engine(synthesizer)          # a Synthesizer loaded elsewhere
    job = engine.submit(request, Priority.BACKGROUND)
    for item in job: ...
    job.cancel()                           # from any thread
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator

from app.core import AudioChunk, StudioError, SynthesisRequest, SynthesisResult
from app.i18n import _
from app.synthesis.scheduler import Scheduler
from app.synthesis.tickets import Priority, Ticket

log = logging.getLogger("chattts_studio.engine")


class Job:
    """A client's handle on one request."""

    def __init__(self, engine: Engine, ticket: Ticket):
        self._engine = engine
        self.ticket = ticket
        self._events: queue.Queue = queue.Queue()

    @property
    def id(self) -> int:
        return self.ticket.id

    @property
    def request(self) -> SynthesisRequest:
        return self.ticket.request

    def cancel(self) -> None:
        self._engine.cancel(self)

    def put(self, item) -> None:
        self._events.put(item)

    def __iter__(self) -> Iterator[AudioChunk | SynthesisResult]:
        while True:
            item = self._events.get()
            if isinstance(item, (BaseException, SynthesisResult)):
                self._events.put(item)  # the end stays: a client asking again hears it at once
            if isinstance(item, BaseException):
                raise item
            yield item
            if isinstance(item, SynthesisResult):
                return

    def result(self, on_chunk=None) -> SynthesisResult:
        """Wait for the end; `on_chunk(AudioChunk)` sees each piece as it comes."""
        for item in self:
            if isinstance(item, AudioChunk):
                if on_chunk is not None:
                    on_chunk(item)
            else:
                return item
        raise AssertionError("unreachable: the iteration ends only after a SynthesisResult")


def _close_when_loaded(handoff: queue.Queue) -> None:
    outcome = handoff.get()
    if isinstance(outcome, Engine):
        outcome.close(0)


class Engine:
    def __init__(self, synthesizer, start: bool = True, max_batch: int | None = None):
        """`start=False` holds the thread until `start()`: requests submitted meanwhile are
        all waiting when the first batch is formed. `max_batch` caps the sentences decoded at
        once (memory still may allow fewer)."""
        if not synthesizer.loaded:
            raise StudioError(_("Load a model first: the engine speaks with a loaded model."))
        self.synthesizer = synthesizer
        self.scheduler = Scheduler(synthesizer, max_batch=max_batch)
        self._jobs: dict[int, Job] = {}
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._calls: list[tuple] = []
        self._thread = threading.Thread(target=self._serve, name="chattts-engine", daemon=True)
        if start:
            self.start()

    @classmethod
    def loading(cls, synthesizer, max_batch: int | None = None, **load_options) -> Engine:
        """An engine whose thread first loads `synthesizer` (`load(**load_options)`) and then
        serves it: the model is loaded and used by one thread (see the module's docstring).
        Returns once it is loaded; raises what the load raised (the thread then ends).
        Interrupted while waiting (Ctrl+C), it raises at once; the engine is closed once loaded."""
        handoff: queue.Queue = queue.Queue(maxsize=1)

        def body() -> None:
            try:
                synthesizer.load(**load_options)
                engine = cls(synthesizer, start=False, max_batch=max_batch)
            except BaseException as exc:
                handoff.put(exc)
                return
            engine._thread = threading.current_thread()
            handoff.put(engine)
            engine._serve()

        threading.Thread(target=body, name="chattts-engine", daemon=True).start()
        try:
            outcome = handoff.get()
        except BaseException:
            # Nobody will hold this engine: close it when the load is done.
            threading.Thread(target=_close_when_loaded, args=(handoff,), daemon=True).start()
            raise
        if isinstance(outcome, BaseException):
            try:
                raise outcome
            finally:
                del outcome  # no cycle keeping a half-loaded model in memory
        return outcome

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self) -> None:
        with self._lock:
            if self._thread.ident is None and not self._closed:
                self._thread.start()

    def submit(self, request: SynthesisRequest, priority: Priority = Priority.INTERACTIVE) -> Job:
        with self._lock:
            if self._closed:
                raise StudioError(_("The engine was shut down; load the model again."))
            ticket = self.scheduler.add(request, priority)
            job = self._jobs[ticket.id] = Job(self, ticket)
            self._wake.notify()
        return job

    def call(self, work, timeout: float | None = None):
        """Run `work()` on the engine's thread between batches (the model is used by one
        thread at a time) and return what it returns, or raise what it raises."""
        done = threading.Event()
        outcome: dict = {}
        with self._lock:
            if self._closed:
                raise StudioError(_("The engine was shut down; load the model again."))
            self._calls.append((work, outcome, done))
            self._wake.notify()
        if not done.wait(timeout):
            raise TimeoutError("the engine did not run the call in time")
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    def cancel(self, job: Job) -> None:
        self.scheduler.cancel(job.ticket)
        with self._lock:
            self._wake.notify()

    def cancel_all(self) -> None:
        self.scheduler.cancel_all()
        with self._lock:
            self._wake.notify()

    def close(self, timeout: float | None = None) -> None:
        """Cancel everything, stop the thread and wait for it."""
        with self._lock:
            self._closed = True
            self._wake.notify()
        self.scheduler.cancel_all()
        with self._lock:
            if self._thread.ident is None:
                # Never started: it still runs once, to tell each waiting client its job ended.
                self._thread.start()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._closed and not self._calls and not self.scheduler.has_work():
                    self._wake.wait()
                calls, self._calls = self._calls, []
                if self._closed and not calls and not self.scheduler.has_work():
                    return
            for work, outcome, done in calls:
                try:
                    outcome["value"] = work()
                except BaseException as exc:
                    outcome["error"] = exc
                done.set()
            try:
                for ticket, item in self.scheduler.run_batch():
                    self._route(ticket, item)
            except Exception as exc:  # a bug: every waiting client hears of it
                log.exception("engine batch failed")
                self.scheduler.cancel_all()
                with self._lock:
                    jobs = list(self._jobs.values())
                    self._jobs.clear()
                for job in jobs:
                    job.put(exc)

    def _route(self, ticket: Ticket, item) -> None:
        with self._lock:
            job = self._jobs.get(ticket.id)
            if isinstance(item, (SynthesisResult, BaseException)):  # a ticket's last event
                self._jobs.pop(ticket.id, None)
        if job is not None:
            job.put(item)
