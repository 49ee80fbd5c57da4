"""The farm's queue and slots with stand-in workers (no model, no processes): a sentence that
kills its worker is tried again elsewhere, and skipped with a sentence after it stopped two; a
worker that keeps dying is retired; a refused one takes no work; with none left, submit refuses
at once; Ctrl+C while a worker starts does not start another. A worker holds up to its
`in_flight` items at once, the work spread over the workers; the items in flight on a worker
that died are each tried again alone, so only the one that kills a worker is skipped; a cancel
reaches each item in flight."""

from __future__ import annotations

import threading
import time

import pytest

from app.core.errors import StudioError, SynthesisCancelled
from app.narration.farm.farm import FarmEngine
from app.narration.farm.slots import Farm, FarmError, Slot, Work, WorkerLost
from app.narration.farm.worker import Refused


class StandIn(Slot):
    def __init__(self, name, refuse=None, dies_on=(), dies_always=False, starts_after=None):
        self.name, self.refuse, self.dies_on, self.dies_always = (
            name,
            refuse,
            set(dies_on),
            dies_always,
        )
        self.starts_after = starts_after  # an Event this worker's start waits for
        self.died = threading.Event()
        self.starts = 0
        self.done: list = []

    def start(self):
        if self.starts_after is not None:
            assert self.starts_after.wait(5)
        self.starts += 1
        if self.refuse:
            raise Refused(self.refuse)
        return {"name": self.name}

    def do(self, item, kind, payload):
        if self.dies_always or payload in self.dies_on:
            self.died.set()
            raise WorkerLost("killed")
        self.done.append(payload)
        return ("ok", payload * 2)


def test_work_lost_with_a_worker_is_done_by_another():
    flaky = StandIn("flaky", dies_on={3})
    steady = StandIn("steady", starts_after=flaky.died)  # so flaky surely takes 1, 2 and dies on 3
    farm = Farm([flaky, steady])
    try:
        results = [farm.put(Work("render", n)) for n in range(1, 5)]
        # The stand-ins answer at once: a bounded wait, so an item dropped with its dead worker
        # fails here in half a second instead of hanging the run.
        assert [w.wait(timeout=0.5) for w in results] == [2, 4, 6, 8]
        assert results[2].worker == "steady" and 3 in steady.done and 3 not in flaky.done
    finally:
        farm.close()


def test_a_sentence_that_stopped_two_workers_is_skipped_and_the_rest_go_on():
    a, b = StandIn("a", dies_on={"poison"}), StandIn("b", dies_on={"poison"})
    farm = Farm([a, b])
    try:
        poison = farm.put(Work("render", "poison"))
        with pytest.raises(StudioError) as skipped:
            poison.wait()
        assert "stopped 2 render workers" in str(skipped.value)
        assert farm.run("render", "ok") == "okok"  # the workers were restarted
        assert farm.notices == []
    finally:
        farm.close()


def test_a_worker_that_keeps_dying_is_retired_and_the_others_finish():
    doomed, steady = StandIn("doomed", dies_always=True), StandIn("steady")
    farm = Farm([doomed, steady], max_restarts=2)
    try:
        assert [farm.run("render", n) for n in range(1, 8)] == [2 * n for n in range(1, 8)]
        farm.wait_ready(5)
    finally:
        farm.close()
    assert doomed.starts <= 3 and not doomed.done


def test_a_refused_worker_takes_no_work_and_with_none_left_submit_refuses_at_once():
    refused = StandIn("only", refuse="its model is damaged")
    engine = FarmEngine(Farm([refused]))
    try:
        assert engine.farm.wait_ready(5)
        assert (
            refused.done == [] and "Worker only was refused before taking work" in engine.notices[0]
        )
        with pytest.raises(FarmError) as none_left:
            engine.submit(object())
        assert "No render worker is left" in str(none_left.value) and "its model is damaged" in str(
            none_left.value
        )
    finally:
        engine.close()


def test_closing_while_a_worker_starts_does_not_start_another():
    gate = threading.Event()

    class Slow(StandIn):
        def start(self):
            self.starts += 1
            gate.wait(5)
            raise WorkerLost("interrupted")

    slow = Slow("slow")
    farm = Farm([slow])
    farm.close(timeout=0.1)
    gate.set()
    for thread in farm._threads:
        thread.join(5)
    assert slow.starts == 1


class Batching(StandIn):
    """A worker holding several items at once: each waits a moment for others to join it (as
    a batch does); a poisoned item kills the worker and every item in flight on it."""

    def __init__(self, name, in_flight, dies_on=(), hold=0.3):
        super().__init__(name, dies_on=dies_on)
        self.in_flight, self.hold = in_flight, hold
        self.cond = threading.Condition()
        self.flying: list = []
        self.dead = False
        self.together: list[list] = []  # the items in flight beside each item, at its end
        self.cancels: list = []
        self.gate: threading.Event | None = None  # when set up, items end once it opens

    def start(self):
        with self.cond:
            self.dead = False
        return super().start()

    def do(self, item, kind, payload):
        with self.cond:
            self.flying.append((item, payload))
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.dead or len(self.flying) >= self.in_flight, self.hold)
            if self.gate is not None:
                self.cond.wait_for(lambda: self.gate.is_set() or item in self.cancels, 10)
            together = [p for _, p in self.flying]
            self.flying.remove((item, payload))
            if self.dead or self.dies_on & set(together):
                self.dead = True
                self.cond.notify_all()
                self.died.set()
                raise WorkerLost("killed")
            if item in self.cancels:
                return ("error", "SynthesisCancelled", "Stopped.")
            self.together.append(together)
            self.done.append(payload)
        return ("ok", payload * 2)

    def cancel(self, item=None):
        with self.cond:
            self.cancels.append(item)
            self.cond.notify_all()


def _waiting_for_work(farm, lanes):
    """Until every slot's lanes wait for work (so the next items meet them all)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with farm._state:
            if all(farm._waiting.get(s.name, 0) == lanes for s in farm.slots):
                return
        time.sleep(0.01)
    raise AssertionError("the slots' lanes did not start")


def test_a_worker_holds_up_to_its_in_flight_items_at_once():
    worker = Batching("w", in_flight=3)
    farm = Farm([worker])
    try:
        results = [farm.put(Work("render", n)) for n in range(1, 8)]
        assert [w.wait(timeout=10) for w in results] == [2 * n for n in range(1, 8)]
    finally:
        farm.close()
    sizes = [len(t) for t in worker.together]
    assert max(sizes) == 3  # never more than its in_flight, and batched, not one by one


def test_the_work_is_spread_over_the_workers():
    a, b = Batching("a", in_flight=4), Batching("b", in_flight=4)
    gate = a.gate = b.gate = threading.Event()
    farm = Farm([a, b])
    try:
        _waiting_for_work(farm, 4)
        results = [farm.put(Work("render", n)) for n in range(1, 5)]
        deadline = time.monotonic() + 10
        while len(a.flying) + len(b.flying) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert (len(a.flying), len(b.flying)) == (2, 2)
        gate.set()
        assert [w.wait(timeout=10) for w in results] == [2, 4, 6, 8]
    finally:
        gate.set()
        farm.close()


def test_items_in_flight_on_a_dead_worker_go_again_alone_and_only_the_killer_is_skipped():
    a = Batching("a", in_flight=3, dies_on={"poison"})
    b = Batching("b", in_flight=3, dies_on={"poison"})
    farm = Farm([a, b])
    try:
        _waiting_for_work(farm, 3)
        names = ["a1", "poison", "a2", "a3", "a4", "a5"]
        results = {n: farm.put(Work("render", n)) for n in names}
        with pytest.raises(StudioError) as skipped:
            results["poison"].wait(timeout=30)
        assert "stopped 2 render workers" in str(skipped.value)
        # Each innocent item shared a dead worker with the poison, and is made all the same.
        assert {n: results[n].wait(timeout=30) for n in names if n != "poison"} == {
            n: n * 2 for n in names if n != "poison"
        }
        assert farm.notices == []  # restarted, not retired
    finally:
        farm.close()
    assert a.starts + b.starts >= 4  # each died at least once and was started again
    assert "poison" not in a.done + b.done


def test_a_cancel_reaches_each_item_in_flight_and_only_it():
    worker = Batching("w", in_flight=3)
    gate = worker.gate = threading.Event()
    engine = FarmEngine(Farm([worker]))
    try:
        _waiting_for_work(engine.farm, 3)
        jobs = [engine.submit(n) for n in (1, 2, 3)]
        deadline = time.monotonic() + 10
        while len(worker.flying) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        jobs[0].cancel()
        jobs[2].cancel()
        with pytest.raises(SynthesisCancelled):
            jobs[0].result()
        with pytest.raises(SynthesisCancelled):
            jobs[2].result()
        gate.set()
        assert jobs[1]._work.wait(timeout=10) == 4
        assert sorted(worker.cancels) == sorted([jobs[0]._work.id, jobs[2]._work.id])
    finally:
        gate.set()
        engine.close()
