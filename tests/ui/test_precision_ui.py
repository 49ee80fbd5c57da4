"""The window's precision choices: fp32 one click away, and a fallback said in the status line."""

from dataclasses import replace

from tests.ui.conftest import LOAD_TIMEOUT_MS


def test_fp32_is_offered_and_reloads_the_model_in_fp32(qtbot, window):
    action = window.menus.actions["precision.fp32"]
    assert "fp32" in action.text()
    window.menus.actions["precision.int8"].trigger()
    qtbot.waitUntil(
        lambda: window.model_status is not None and window.model_status.decode == "jit-int8",
        timeout=LOAD_TIMEOUT_MS,
    )
    action.trigger()
    qtbot.waitUntil(
        lambda: window.model_status is not None and window.model_status.decode == "jit-fp32",
        timeout=LOAD_TIMEOUT_MS,
    )
    assert window.settings.precision == "fp32" and action.isChecked()


def test_a_precision_the_device_lacks_is_said_in_the_status_line(window):
    # What the worker reports when int8 (saved on a CPU) meets a GPU: automatic runs instead.
    window.model.on_loaded(
        replace(
            window.model_status,
            device="cuda:0",
            decode="graph-bf16",
            precision="bf16",
            precision_asked="int8",
        )
    )
    assert "Precision int8 is not available on this device, so bf16 runs." in window.status.text()
    window.model.on_loaded(replace(window.model_status, precision="fp32", precision_asked="fp32"))
    assert "not available" not in window.status.text()


def test_the_fallback_sentence_is_translated(qtbot, window):
    window.menus.actions["language.zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
    window.model.on_loaded(
        replace(window.model_status, decode="graph-bf16", precision="bf16", precision_asked="int8")
    )
    text = window.status.text()
    assert "int8" in text and "bf16" in text and "not available" not in text
    window.menus.actions["language.en"].trigger()
