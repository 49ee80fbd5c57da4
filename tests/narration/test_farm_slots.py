"""The farm's queue and slots with stand-in workers (no model, no processes): a sentence that
kills its worker is tried again elsewhere, and skipped with a sentence after it stopped two; a
worker that keeps dying is retired; a refused one takes no work; with none left, submit refuses
at once; Ctrl+C while a worker starts does not start another."""

from __future__ import annotations

import threading

import pytest

from app.core.errors import StudioError
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

    def do(self, kind, payload):
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
