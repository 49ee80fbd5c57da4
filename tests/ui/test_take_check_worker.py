"""The window's take check without the window: a check that fails is forgotten (asked again
later) and said only for the user's own result; a saved entry checked while the checker's
models were missing is checked again; the work sent to the engine's thread touches nothing of
the worker's (it may run there after the worker gave up waiting for it)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import soundfile as sf

from app.library import TakeCheck
from app.ui.controllers.takes import TakeCheckController
from app.workers.take_check_worker import LEARN_FROM, TakeCheckWorker, TakeToCheck

TEXT = "Hello there, this is a take."


class _Engine:
    def call(self, work, timeout=None):
        return work()


class _History:
    def __init__(self, folder):
        self.folder = folder
        self.kept: dict[str, TakeCheck] = {}

    def wav_path(self, entry):
        return self.folder / f"{entry.id}.wav"

    def set_take_check(self, entry_id, check) -> bool:
        self.kept[entry_id] = check
        return True


def _entry(entry_id: str, take_check=None):
    return SimpleNamespace(
        id=entry_id,
        text=TEXT,
        speaker="",
        take_check=take_check,
        to_request=lambda: SimpleNamespace(speed=5),
    )


def _controller(qtbot, tmp_path):
    controller = TakeCheckController(_History(tmp_path), lambda: _Engine())
    said: list[str] = []
    controller.notChecked.connect(said.append)
    return controller, said


def test_a_failed_check_of_the_users_result_is_said_and_forgotten(qtbot, tmp_path):
    controller, said = _controller(qtbot, tmp_path)
    try:
        broken = SimpleNamespace(speaker="", audio=None, sample_rate=0)  # nothing to read
        with qtbot.waitSignal(controller.notChecked, timeout=30_000):
            controller.check_result(_entry("played"), SimpleNamespace(speed=5), broken)
        assert said == ["This take could not be checked; see the log for why."]
        assert "played" not in controller._asked  # asked again next time
    finally:
        controller.shutdown()


def test_a_failed_check_of_a_saved_entry_is_quiet_and_asked_again(qtbot, tmp_path):
    controller, said = _controller(qtbot, tmp_path)
    try:
        entry = _entry("saved")  # its WAV is missing: the check fails
        with qtbot.waitSignal(controller._thread.worker.failed, timeout=30_000):
            controller.check_saved(entry)
        qtbot.waitUntil(lambda: "saved" not in controller._asked, timeout=5_000)
        assert said == []
        with qtbot.waitSignal(controller._thread.worker.failed, timeout=30_000):
            controller.check_saved(entry)  # not forgotten forever: asked again
    finally:
        controller.shutdown()


def test_a_saved_entry_not_checked_for_want_of_models_is_checked_again(qtbot, tmp_path):
    controller, _said = _controller(qtbot, tmp_path)
    try:
        noise = np.random.default_rng(0).uniform(-0.3, 0.3, 48_000).astype(np.float32)
        sf.write(tmp_path / "unchecked.wav", noise, 24_000)
        sf.write(tmp_path / "checked.wav", noise, 24_000)
        controller.check_saved(_entry("checked", TakeCheck(True)))
        assert "checked" not in controller._asked  # a real check stays
        with qtbot.waitSignal(controller.checked, timeout=60_000) as signal:
            controller.check_saved(_entry("unchecked", TakeCheck(False)))
        assert signal.args == ["unchecked"]
        assert controller._history.kept["unchecked"].checked
    finally:
        controller.shutdown()


class _Untouchable(dict):
    def __getitem__(self, key):
        raise AssertionError("the engine's thread read the worker's clean takes")

    def __len__(self):
        raise AssertionError("the engine's thread read the worker's clean takes")


def test_the_work_on_the_engines_thread_touches_nothing_of_the_worker(qtbot):
    late = []

    class GivesUp:
        def call(self, work, timeout=None):
            late.append(work)  # still queued: it runs later, on the engine's thread
            raise TimeoutError("the engine did not answer")

    worker = TakeCheckWorker(lambda: GivesUp())
    for _ in range(LEARN_FROM):  # a learnt rate for the voice
        worker._clean[("voice", "en", 5)].append((TEXT, 2.0))
    noise = np.random.default_rng(0).uniform(-0.3, 0.3, 48_000).astype(np.float32)
    failed = []
    worker.failed.connect(failed.append)
    worker.check(TakeToCheck("late", TEXT, "voice", 5, audio=noise, sample_rate=24_000))
    assert failed == ["late"] and len(late) == 1
    worker._clean = _Untouchable()  # the worker's thread owns it from now on
    report = late[0]()
    assert report.checked
