"""Worker slots and the shared queue they take work from.

A slot is one worker's place in the farm: it starts its worker (a process, a Ray actor) and
keeps up to `in_flight` work items on it at once (one lane thread each; the worker's engine
batches them), the fewest-loaded slot taking the next item first. If the worker dies under them
(killed, out of memory, node lost) its items go back to the front of the queue, a new worker is
started and the slot goes on. Which of several items in flight killed a worker is not known:
each is tried next alone, and only a worker dying under an item alone counts against the item.
A worker that keeps dying is retired with a sentence; one that cannot load its model is refused
at once, before it takes work. The render finishes on the slots that remain.
"""

from __future__ import annotations

import collections
import itertools
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

    _ids = itertools.count(1)

    def __init__(self, kind: str, payload):
        self.id = next(Work._ids)  # its name on the worker (a cancel names it)
        self.kind, self.payload = kind, payload
        self.cancelled = False
        self.killers: set[str] = set()  # the workers that died while making it alone
        self.alone = False  # a worker died while it was in flight beside others: try it alone
        self.shared = False  # another item was in flight beside it on its worker this try
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
    """A worker's transport. `start()` -> info dict, or raises Refused / WorkerLost; `do(item,
    kind, payload)` -> the worker's reply, or raises WorkerLost, called from up to `in_flight`
    threads at once (one per item); `cancel(item)` stops one item in flight, `cancel(None)`
    every one."""

    name = "worker"
    in_flight = 1

    def start(self) -> dict:
        raise NotImplementedError

    def do(self, item: int, kind: str, payload):
        raise NotImplementedError

    def cancel(self, item: int | None = None) -> None:
        pass

    def stop(self) -> None:
        pass


class _Run:
    """One start of a slot's worker: its lanes stop taking work once it is lost."""

    def __init__(self) -> None:
        self.lost: WorkerLost | None = None


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
        self._current: dict[str, list[Work]] = {}  # a slot's items in flight (none: no key)
        self._waiting: dict[str, int] = {}  # a slot's lanes waiting for work
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
            running = [name for name, items in self._current.items() if work in items]
        for slot in self.slots:
            if slot.name in running:
                slot.cancel(work.id)

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
            slot.cancel(None)
        for thread in self._threads:
            thread.join(timeout)

    # -- each slot's lanes --------------------------------------------------------------------
    def _pick(self, slot: Slot) -> Work | None:
        """The item this slot may take now (the lock held): the first queued that its worker
        did not die under alone (any, when it is the last worker); an item to be tried alone
        only on an idle worker, and nothing beside one."""
        held = self._current.get(slot.name, [])
        if any(w.alone for w in held):
            return None
        work = next((w for w in self._queue if slot.name not in w.killers), None)
        if work is None and self._alive <= 1 and self._queue:
            work = self._queue[0]
        if work is not None and work.alone and held:
            return None
        return work

    def _fewer_elsewhere(self, slot: Slot, work: Work) -> bool:
        """Whether a slot holding fewer items waits to take this one (the lock held): work is
        spread so that each worker batches its share."""
        mine = len(self._current.get(slot.name, []))
        return any(
            other is not slot
            and self._waiting.get(other.name, 0) > 0
            and len(self._current.get(other.name, [])) < mine
            and self._pick(other) is work
            for other in self.slots
        )

    def _take(self, slot: Slot, run: _Run) -> Work | None:
        """The next item, marked as this slot's in the same locked step (a cancel then finds
        it either queued or running, never in between); None once the farm closes or this
        start of the worker is lost. An item whose worker died here goes to another worker
        while there is one."""
        with self._state:
            self._waiting[slot.name] = self._waiting.get(slot.name, 0) + 1
            try:
                while True:
                    self._state.wait_for(
                        lambda: self._closed or run.lost is not None or bool(self._queue)
                    )
                    if self._closed or run.lost is not None:
                        return None
                    work = self._pick(slot)
                    if work is not None and not self._fewer_elsewhere(slot, work):
                        self._queue.remove(work)
                        held = self._current.setdefault(slot.name, [])
                        for other in held:
                            other.shared = True
                        work.shared = bool(held)
                        held.append(work)
                        self._state.notify_all()  # the balance between slots changed
                        return work
                    # Another slot takes it, or one in flight here ends first; else it stays
                    # queued for the others.
                    self._state.wait(0.5)
            finally:
                self._waiting[slot.name] -= 1
                self._state.notify_all()  # a slot deferring to this one looks again

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
        """The started worker's lanes, one per item it may hold, until the farm closes (None)
        or the worker is lost (why)."""
        run = _Run()
        lanes = [
            threading.Thread(
                target=self._lane, args=(slot, run), name=f"farm-{slot.name}-{i}", daemon=True
            )
            for i in range(max(1, int(slot.in_flight)))
        ]
        for lane in lanes:
            lane.start()
        for lane in lanes:
            lane.join()
        return run.lost

    def _lane(self, slot: Slot, run: _Run) -> None:
        while (work := self._take(slot, run)) is not None:
            if work.cancelled:
                self._release(slot, work)
                work.finish(("error", "SynthesisCancelled", _("Stopped.")))
                continue
            try:
                reply = slot.do(work.id, work.kind, work.payload)
            except Exception as exc:  # WorkerLost, or the transport failing in a way of its own
                lost = exc if isinstance(exc, WorkerLost) else WorkerLost(repr(exc))
                with self._state:
                    run.lost = run.lost or lost
                    self._state.notify_all()
                self._release(slot, work)
                self._again(slot, work, lost)
                return
            self._release(slot, work)
            work.finish(reply, slot.name)

    def _again(self, slot: Slot, work: Work, lost: WorkerLost) -> None:
        """An item whose worker died under it: queued again, or skipped after it alone stopped
        MAX_ATTEMPTS workers."""
        if work.cancelled:
            work.finish(("error", "SynthesisCancelled", _("Stopped.")))
            return
        if work.shared:
            work.alone = True  # it, or one beside it, stopped the worker: find out alone
        else:
            work.killers.add(slot.name)
        if len(work.killers) >= MAX_ATTEMPTS:
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

    def _release(self, slot: Slot, work: Work) -> None:
        with self._state:
            held = self._current.get(slot.name, [])
            if work in held:
                held.remove(work)
            if not held:
                self._current.pop(slot.name, None)
            self._state.notify_all()

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
