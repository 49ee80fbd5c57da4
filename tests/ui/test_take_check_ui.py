"""The window checks each take off the GUI thread (issue 42): the random test model's noise is
flagged "no speech" on its history entry (an icon, the reason in both languages), and "try
another take" makes a new entry with the next seed, leaving the editor and the old entry alone;
without the checker's models the status line says once that takes are not checked."""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import Qt

from app import audio
from app.audio import FindingKind
from app.audio.takes import vad
from app.audio.takes.model_files import TakeModelMissing
from app.core.request import SamplingParams, SynthesisRequest
from tests.ui.conftest import RUN_TIMEOUT_MS

TEXT = "Hello there, this is a take."


def _play(qtbot, window, monkeypatch, seed: int = 7) -> None:
    request = SynthesisRequest(
        TEXT, seed=seed, refine_text=False, sampling=SamplingParams(max_new_tokens=48)
    )
    monkeypatch.setattr(window, "current_request", lambda: request)
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        window.play()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)


def _checked(window, count: int):
    entries = window.history.entries()
    return len(entries) == count and all(e.take_check is not None for e in entries)


def _item(window, entry_id: str):
    rows = window.history_panel.list
    for row in range(rows.count()):
        if rows.item(row).data(Qt.ItemDataRole.UserRole) == entry_id:
            return rows.item(row)
    raise AssertionError(f"entry {entry_id} is not listed")


def test_noise_is_flagged_no_speech_and_another_take_is_a_new_entry(qtbot, window, monkeypatch):
    checked_on = []
    real_check = audio.check_take

    def on_which_thread(*args, **kwargs):
        checked_on.append(threading.current_thread())
        return real_check(*args, **kwargs)

    monkeypatch.setattr(audio, "check_take", on_which_thread)

    _play(qtbot, window, monkeypatch)
    qtbot.waitUntil(lambda: _checked(window, 1), timeout=RUN_TIMEOUT_MS)
    assert checked_on and threading.main_thread() not in checked_on  # never the GUI thread
    [first] = window.history.entries()
    assert first.take_check.checked and first.take_check.flagged
    assert FindingKind.NO_SPEECH in {f.kind for f in first.take_check.findings}
    item = _item(window, first.id)
    assert not item.icon().isNull()
    assert "This take may not be usable:" in item.toolTip()
    assert "The take has no speech" in item.toolTip()
    window.history_panel.select(first.id)
    assert not window.history_panel.retake_button.isHidden()
    assert window.history_panel.retake_button.text() == "Try another take"

    # Both languages: the reason is said again in Chinese.
    window.menus.actions["language.zh_CN"].trigger()
    try:
        qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
        tip = _item(window, first.id).toolTip()
        assert "没有语音" in tip and "The take" not in tip
        assert window.history_panel.retake_button.text() == "再试一次"
    finally:
        window.menus.actions["language.en"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "Play", timeout=5_000)

    window.text_panel.set_text("Something the user is writing now.")
    seed_before = window.voice_panel.seed_value()
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(window.history_panel.retake_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _checked(window, 2), timeout=RUN_TIMEOUT_MS)
    newest, old = window.history.entries()
    assert old.id == first.id and old.take_check == first.take_check  # kept as it was
    assert newest.id != first.id and newest.text == TEXT
    assert newest.request["seed"] == first.request["seed"] + 1 == 8
    assert newest.speaker == first.speaker  # the same voice
    assert newest.request["sampling"] == first.request["sampling"]
    assert newest.take_check.flagged  # the test model makes noise whatever the seed
    assert window.text_panel.text() == "Something the user is writing now."
    assert window.voice_panel.seed_value() == seed_before


def test_without_the_voice_activity_model_the_status_says_once_takes_are_not_checked(
    qtbot, window, monkeypatch
):
    def missing(*_args):
        raise TakeModelMissing("silero_vad")

    monkeypatch.setattr(vad, "_model", None)
    monkeypatch.setattr(vad, "model_file", missing)
    said = []
    window.takes.notChecked.connect(said.append)
    _play(qtbot, window, monkeypatch)
    qtbot.waitUntil(lambda: _checked(window, 1), timeout=RUN_TIMEOUT_MS)
    assert window.status.text().startswith("Takes are not checked")
    [entry] = window.history.entries()
    assert not entry.take_check.checked and not entry.take_check.flagged
    assert _item(window, entry.id).icon().isNull()  # nothing claimed about the take
    _play(qtbot, window, monkeypatch, seed=8)
    qtbot.waitUntil(lambda: _checked(window, 2), timeout=RUN_TIMEOUT_MS)
    assert len(said) == 1
    assert not window.status.text().startswith("Takes are not checked")


def test_a_saved_result_never_checked_is_checked_when_selected(qtbot, make_window, tmp_path):
    from app.core import ModelKind, SynthesisResult
    from app.library import HistoryStore

    store = HistoryStore(tmp_path / "library")
    noise = np.random.default_rng(0).uniform(-0.3, 0.3, 48_000).astype(np.float32)
    result = SynthesisResult(noise, 24_000, "cpu", "", 2222, 1, 1.0)
    saved = store.add(SynthesisRequest(TEXT), result, ModelKind.OFFICIAL)
    assert saved.take_check is None  # made before takes were checked
    window = make_window(history=store)
    assert _item(window, saved.id).icon().isNull()
    window.history_panel.select(saved.id)
    qtbot.waitUntil(lambda: _checked(window, 1), timeout=RUN_TIMEOUT_MS)
    [entry] = window.history.entries()
    assert {f.kind for f in entry.take_check.findings} == {FindingKind.NO_SPEECH}
    assert not _item(window, saved.id).icon().isNull()
    assert not window.history_panel.retake_button.isHidden()
