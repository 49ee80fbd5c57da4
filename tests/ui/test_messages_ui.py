"""Messages in the window: every warning of a result in full (download rows: test_download_ui)."""

from PySide6.QtCore import Qt

from app.core.request import SamplingParams, SynthesisRequest
from tests.ui.conftest import RUN_TIMEOUT_MS


def test_every_warning_of_a_result_is_readable_in_full(qtbot, window, monkeypatch):
    text = "第一句话。第二句话。第三句话。"
    request = SynthesisRequest(
        text, refine_text=False, voice_lock=False, sampling=SamplingParams(max_new_tokens=4)
    )
    monkeypatch.setattr(window, "current_request", lambda: request)
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS) as finished:
        qtbot.mouseClick(window.play_button, Qt.MouseButton.LeftButton)
    warnings = finished.args[1].warnings
    assert len(warnings) >= 2  # each sentence hit the 4-token limit
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
    shown = window.result_warnings
    assert shown.isVisible()
    assert [shown.item(r).text() for r in range(shown.count())] == [f"⚠ {w}" for w in warnings]
    assert [shown.item(r).toolTip() for r in range(shown.count())] == warnings
    assert f"{len(warnings)} warning(s), below" in window.status.text()
    window.text_panel.set_text("你好。")
    monkeypatch.setattr(
        window, "current_request", lambda: SynthesisRequest("你好。", refine_text=False)
    )
    window.play()
    assert not shown.isVisible()  # a new request clears them
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
