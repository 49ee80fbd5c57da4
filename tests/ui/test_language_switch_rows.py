"""The language switch reaches every message a first week of use met (issue 39, item 11): the
banners, warnings, narration status, history rows and ready line are said again in the new
language, without reading anything from disk."""

import re

from PySide6.QtCore import Qt

from app.audio.playback import NO_DEVICE
from app.core.request import SamplingParams, SynthesisRequest
from app.i18n import _
from tests.doctor.test_report_zh import english_runs
from tests.ui.conftest import RUN_TIMEOUT_MS, run_to_end
from tests.ui.test_rough_edges import HAN, _no_device_window


# -- 11 language switch ---------------------------------------------------------------------
def test_switching_to_chinese_retranslates_the_audio_banner_and_the_warnings(
    qtbot, make_window, monkeypatch
):
    window = _no_device_window(make_window)
    request = SynthesisRequest(
        "第一句话。第二句话。",
        refine_text=False,
        voice_lock=False,
        sampling=SamplingParams(max_new_tokens=4),
    )
    monkeypatch.setattr(window, "current_request", lambda: request)
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        window.play()
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
    try:
        window.menus.actions["language.zh_CN"].trigger()
        qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
        shown = [window.audio_banner.text()]
        assert HAN.search(shown[0]), shown[0]
        box = window.result_warnings
        assert box.count() >= 2  # each sentence hit the 4-token limit
        shown += [box.item(r).text() for r in range(box.count())] + [
            box.item(r).toolTip() for r in range(box.count())
        ]
        shown.append(window.status.text())  # the status line too
        for text in shown:
            assert HAN.search(text) and english_runs(text, {}) == [], text
            assert not re.search(r"\b(audio|Sentence|limit|found)\b", text), text
    finally:
        window.menus.actions["language.en"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "Play", timeout=5_000)
    assert window.audio_banner.text() == NO_DEVICE


# -- 11, 13 the narration window: its status follows the language; a take's Play says why --------
def test_switching_to_chinese_retranslates_the_narration_status(qtbot, tmp_path):
    from app.ui.i18n import apply_language
    from app.ui.narration.controller import NarrationController
    from app.ui.narration.window import NarrationWindow
    from tests.ui.narration_support import FakeModel, FakeRenderer, FakeSpeech, make_project

    project = make_project(tmp_path / "book.ctsproj")
    FakeRenderer.gate, FakeRenderer.made = None, []
    speech = FakeSpeech()
    controller = NarrationController(FakeModel(), speech, renderer_factory=FakeRenderer)
    view = NarrationWindow(controller)
    qtbot.addWidget(view)
    controller.open(str(project.path))
    view.show()
    try:
        with qtbot.waitSignal(controller.renderEnded, timeout=30_000):
            view.actions["render"].trigger()
        assert view.status.text() == "Render finished. (test model: noise, not speech)"
        speech.output.problem = _(NO_DEVICE)
        view._reload_chapter()
        view.takes.list.setCurrentRow(0)
        qtbot.mouseClick(view.takes.play_button, Qt.MouseButton.LeftButton)
        assert speech.played == [] and view.status.text() == NO_DEVICE
        apply_language("zh_CN")
        qtbot.waitUntil(lambda: HAN.search(view.status.text()) is not None, timeout=5_000)
        assert english_runs(view.status.text(), {}) == [] and "audio" not in view.status.text()
    finally:
        apply_language("en")
        view.close()
        assert controller.shutdown()


# -- 11, 17 the history rows' unit follows the language ---------------------------------------------
def test_history_rows_say_seconds_in_chinese(qtbot, window):
    run_to_end(qtbot, window, "秒。")
    rows = window.history_panel.list
    assert re.search(r"\d\.\d s$", rows.item(0).text().split("\n")[0])
    try:
        window.menus.actions["language.zh_CN"].trigger()
        qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
        first_line = rows.item(0).text().split("\n")[0]
        assert re.search(r"\d\.\d 秒$", first_line), first_line
    finally:
        window.menus.actions["language.en"].trigger()


def test_a_language_change_says_the_rows_again_without_reading_the_library(
    qtbot, window, monkeypatch
):
    """The rows shown are said again; the library is not read (it may be gone: a finished
    self-test removes its home while its window could still hear the change)."""
    run_to_end(qtbot, window, "秒。")
    rows = window.history_panel.list

    def gone():
        raise AssertionError("the library was read on a language change")

    monkeypatch.setattr(window.history, "entries", gone)
    try:
        window.menus.actions["language.zh_CN"].trigger()
        qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
        assert rows.count() == 1 and re.search(r"\d\.\d 秒$", rows.item(0).text().split("\n")[0])
    finally:
        window.menus.actions["language.en"].trigger()


# -- 11 the ready line: whole sentences, joined as the language joins them --------------------------------
def test_the_ready_line_is_whole_sentences(qtbot, window):
    from types import SimpleNamespace

    status = SimpleNamespace(
        kind="tiny",
        device="cpu",
        decode="jit-int8",
        load_seconds=2.0,
        precision_asked="auto",
        precision="int8",
    )
    assert window.ui.ready_text(status).startswith(
        "Ready: tiny on cpu, jit-int8 (loaded in 2.0 s). int8 is"
    )
    try:
        window.menus.actions["language.zh_CN"].trigger()
        qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
        text = window.ui.ready_text(status)
        assert "秒）。int8" in text and " int8" not in text, text
    finally:
        window.menus.actions["language.en"].trigger()
