"""Messages in the window: every warning of a result in full, and download rows that say how
a download ended."""

from PySide6.QtCore import Qt

from app.engine.request import SamplingParams, SynthesisRequest
from app.testing.fake_hub import FakeHub
from tests.ui.conftest import RUN_TIMEOUT_MS
from tests.ui.test_download_ui import tiny_is_official  # noqa: F401  (fixture)


def test_every_warning_of_a_result_is_readable_in_full(qtbot, window, monkeypatch):
    text = "第一句话。第二句话。第三句话。"
    request = SynthesisRequest(text, refine_text=False, voice_lock=False, sampling=SamplingParams(max_new_tokens=4))
    monkeypatch.setattr(window, "current_request", lambda: request)
    with qtbot.waitSignal(window.worker.worker.finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(window.play_button, Qt.MouseButton.LeftButton)
    warnings = finished.args[1].warnings
    assert len(warnings) >= 2                                   # each sentence hit the 4-token limit
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
    shown = window.result_warnings
    assert shown.isVisible() and shown.wordWrap()
    assert shown.text().splitlines() == [f"⚠ {w}" for w in warnings]
    assert f"{len(warnings)} warning(s), below" in window.status.text()
    window.text_panel.set_text("你好。")
    monkeypatch.setattr(window, "current_request", lambda: SynthesisRequest("你好。", refine_text=False))
    window.play()
    assert not shown.isVisible()                                # a new request clears them
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)


def test_rows_of_a_stopped_download_do_not_stay_waiting(qtbot, make_window, settings, tiny_model, tmp_path,
                                                        tiny_is_official, monkeypatch):  # noqa: F811
    import app.engine.model_download as md

    settings.model_dir = str(tmp_path / "model")
    window = make_window(wait_loaded=False)
    dialog = window.open_download()
    monkeypatch.setattr(md, "CHUNK", 1024)
    with FakeHub(tiny_model) as hub:
        dialog.select_source("custom", hub.endpoint)
        dialog.downloads.worker.progress.connect(lambda p: dialog.cancel() if p.done_bytes else None)
        with qtbot.waitSignal(dialog.downloads.worker.cancelled, timeout=RUN_TIMEOUT_MS):
            dialog.start()
    qtbot.waitUntil(lambda: "resume" in dialog.status.text(), timeout=5_000)
    states = [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())]
    assert not {"waiting", "downloading", "checking sha256"} & set(states), states
    assert "stopped, resumes next time" in states
