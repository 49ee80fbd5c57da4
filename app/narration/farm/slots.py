"""Worker slots and the shared queue they take work from.

A slot is one worker's place in the farm: it starts its worker (a process, a Ray actor), takes
the next work item, and if the worker dies under it (killed, out of memory, node lost) puts that
item back at the front of the queue, starts a new worker and goes on. A worker that keeps dying
is retired with a sentence; one that cannot load its model is refused at once, before it takes
work. The render finishes on the slots that remain.
"""

from __future__ import annotations

import collections
import logging
import threading

from app.core import StudioError, SynthesisCancelled
from app.i18n import _

log = logging.getLogger("chattts_studio.farm")
MAX_RESTARTS = 2
MAX_ATTEMPTS = (
    2  # a sentence that stopped this many different workers is skipped, not tried on every one
)


class FarmError(StudioError):
    """No worker is left to render."""


class WorkerLost(Exception):
    """The worker died while starting or working."""


class Work:
    """One item: render a request, or make a speaker / a reference for the voices."""

    def __init__(self, kind: str, payload):
        self.kind, self.payload = kind, payload
        self.cancelled = False
        self.killers: set[str] = set()  # the workers that died while making it
        self.worker: str | None = None
        self._reply: tuple = ()  # set by finish: ("ok", value) or ("error", kind, message)
        self._done = threading.Event()

    def finish(self, reply, worker: str | None = None) -> None:
        if not self._done.is_set():
            self._reply, self.worker = reply, worker
            self._done.set()

    def wait(self, timeout: float | None = None):
        """The value, or the failure raised as a StudioError of the same meaning; TimeoutError
        when `timeout` seconds pass first."""
        if not self._done.wait(timeout):
            raise TimeoutError(f"{self.kind} work not finished within {timeout} s")
        status, *rest = self._reply
        if status == "ok":
            return rest[0]
        kind, message = rest
        if kind == "SynthesisCancelled":
            raise SynthesisCancelled(message)
        if kind in ("StudioError", "FarmError"):
            raise (FarmError if kind == "FarmError" else StudioError)(message)
        raise StudioError(_("The sentence could not be rendered ({error}).").format(error=message))


class Slot:
    """A worker's transport. `start()` -> info dict, or raises Refused / WorkerLost; `do(kind,
    payload)` -> the worker's reply, or raises WorkerLost."""

    name = "worker"

    def start(self) -> dict:
        raise NotImplementedError

    def do(self, kind: str, payload):
        raise NotImplementedError

    def cancel_current(self) -> None:
        pass

    def stop(self) -> None:
        pass


class Farm:
    def __init__(self, slots: list[Slot], max_restarts: int = MAX_RESTARTS):
        self.slots = slots
        self.max_restarts = max_restarts
        self.notices: list[str] = []
        self.infos: dict[str, dict] = {}
        self._queue: collections.deque[Work] = collections.deque()
        self._state = threading.Condition()
        self._closed = False
        self._alive = len(slots)
        self._current: dict[str, Work] = {}
        self._threads = [
            threading.Thread(
                target=self._drive, args=(slot,), name=f"farm-{slot.name}", daemon=True
            )
            for slot in slots
        ]
        for thread in self._threads:
            thread.start()

    # -- any thread ---------------------------------------------------------------------------
    def put(self, work: Work, front: bool = False) -> Work:
        with self._state:
            if self._closed or self._alive == 0:
                work.finish(("error", "FarmError", self._none_left()))
                return work
            (self._queue.appendleft if front else self._queue.append)(work)
            self._state.notify_all()
        return work

    def run(self, kind: str, payload):
        return self.put(Work(kind, payload)).wait()

    def cancel(self, work: Work) -> None:
        with self._state:
            work.cancelled = True
            if work in self._queue:
                self._queue.remove(work)
                work.finish(("error", "SynthesisCancelled", _("Stopped.")))
                return
            running = [name for name, w in self._current.items() if w is work]
        for slot in self.slots:
            if slot.name in running:
                slot.cancel_current()

    def has_workers(self) -> bool:
        with self._state:
            return self._alive > 0 and not self._closed

    def none_left(self) -> str:
        return self._none_left()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Until every slot has started or been retired."""
        with self._state:
            return self._state.wait_for(lambda: len(self.infos) >= self._alive, timeout)

    def close(self, timeout: float = 30.0) -> None:
        with self._state:
            self._closed = True
            left, self._queue = list(self._queue), collections.deque()
            self._state.notify_all()
        for work in left:
            work.finish(("error", "SynthesisCancelled", _("Stopped.")))
        for slot in self.slots:
            slot.cancel_current()
        for thread in self._threads:
            thread.join(timeout)

    # -- each slot's thread -------------------------------------------------------------------
    def _take(self, slot: Slot) -> Work | None:
        """The next item, marked as this slot's in the same locked step (a cancel then finds
        it either queued or running, never in between). An item whose worker died here goes to
        another worker while there is one."""
        with self._state:
            while True:
                self._state.wait_for(lambda: self._closed or self._queue)
                if self._closed:
                    return None
                work = next((w for w in self._queue if slot.name not in w.killers), None)
                if work is None and self._alive <= 1:
                    work = self._queue[0]
                if work is not None:
                    self._queue.remove(work)
                    self._current[slot.name] = work
                    return work
                self._state.wait(0.5)  # the others may take it; else it stays queued for them

    def _drive(self, slot: Slot) -> None:
        from app.narration.farm.worker import Refused

        failures = 0
        while True:
            with self._state:
                if self._closed:
                    break
            try:
                info = slot.start()
            except Refused as exc:
                return self._retire(
                    slot,
                    _("Worker {name} was refused before taking work: {reason}").format(
                        name=slot.name, reason=exc
                    ),
                )
            except Exception as exc:  # WorkerLost, or a process/actor that cannot start
                log.warning("worker %s did not start: %r", slot.name, exc)
                failures += 1
                if failures > self.max_restarts:
                    return self._retire(slot, self._lost(slot, exc))
                continue
            with self._state:
                self.infos[slot.name] = info
                self._state.notify_all()
            lost = self._work(slot)
            if lost is None:
                slot.stop()
                return
            failures += 1
            log.warning("worker %s lost (%s); its work is queued again", slot.name, lost)
            if failures > self.max_restarts:
                return self._retire(slot, self._lost(slot, lost))
        slot.stop()

    def _work(self, slot: Slot) -> WorkerLost | None:
        while (work := self._take(slot)) is not None:
            if work.cancelled:
                self._release(slot)
                work.finish(("error", "SynthesisCancelled", _("Stopped.")))
                continue
            try:
                reply = slot.do(work.kind, work.payload)
            except Exception as exc:  # WorkerLost, or the transport failing in a way of its own
                lost = exc if isinstance(exc, WorkerLost) else WorkerLost(repr(exc))
                self._release(slot)
                work.killers.add(slot.name)
                if work.cancelled:
                    work.finish(("error", "SynthesisCancelled", _("Stopped.")))
                elif len(work.killers) >= MAX_ATTEMPTS:
                    # Two workers died on it: the sentence itself is the likely cause (memory). It
                    # fails alone; a worker that dies on everything is retired by its own count.
                    work.finish(
                        (
                            "error",
                            "StudioError",
                            _(
                                "This sentence stopped {count} render workers ({reason}); it was skipped."
                            ).format(count=len(work.killers), reason=lost),
                        )
                    )
                else:
                    self.put(work, front=True)  # another worker (or this one, restarted) does it
                return lost
            self._release(slot)
            work.finish(reply, slot.name)
        return None

    def _release(self, slot: Slot) -> None:
        with self._state:
            self._current.pop(slot.name, None)

    def _lost(self, slot: Slot, exc) -> str:
        return _(
            "Worker {name} stopped {count} times ({reason}); it was retired and the render goes on "
            "without it."
        ).format(name=slot.name, count=self.max_restarts + 1, reason=exc)

    def _retire(self, slot: Slot, sentence: str) -> None:
        log.warning("%s", sentence)
        slot.stop()
        with self._state:
            self.notices.append(sentence)
            self._alive -= 1
            self._state.notify_all()
            if self._alive > 0:
                return
            left, self._queue = list(self._queue), collections.deque()
        for work in left:
            work.finish(("error", "FarmError", self._none_left()))

    def _none_left(self) -> str:
        return _(
            "No render worker is left ({reasons}); fix what they report and resume the render."
        ).format(reasons=" ".join(self.notices) or _("all stopped"))
