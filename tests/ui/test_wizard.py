"""The first-run wizard with the tiny model: its dialogs can be used, and each page follows the
real state (downloading, loaded, failed, no sound device)."""

import shutil

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication

from app.model.files import MODEL_FILES, STUDIO_CONFIG_NAME
from app.selftest.fake_audio import FakeOutput
from tests.support.fake_hub import FakeHub
from tests.ui.conftest import LOAD_TIMEOUT_MS, RUN_TIMEOUT_MS
from tests.ui.test_doctor_ui import snapshot_probe
from tests.ui.test_download_ui import tiny_is_official  # noqa: F401  (fixture)

NO_SOUND = "No audio output device was found, so nothing can be played; export still works."


class _Blocking(QObject):
    """Which windows Qt blocks (a modal window elsewhere swallows their clicks): offscreen
    test clicks are delivered regardless, so this is what tells a usable dialog."""

    def __init__(self):
        super().__init__()
        self.state = {}
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, obj, event):
        if event.type() in (QEvent.Type.WindowBlocked, QEvent.Type.WindowUnblocked):
            self.state[obj] = event.type() == QEvent.Type.WindowBlocked
        return False

    def blocked(self, widget) -> bool:
        return self.state.get(widget, False)


def _to_model_page(qtbot, window):
    window.open_wizard()
    wizard = window.wizard
    with qtbot.waitSignal(window.doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
        wizard.next()
    wizard.next()
    return wizard, wizard.currentPage()


def test_wizard_downloads_the_model_through_its_own_dialog_then_speaks_without_a_sound_device(
    qtbot,
    make_window,
    settings,
    tiny_model,
    tmp_path,
    tiny_is_official,  # noqa: F811 (a fixture, imported for pytest)
):
    settings.first_run_done = False
    settings.model_dir = str(tmp_path / "model")
    (tmp_path / "model").mkdir()
    shutil.copy(tiny_model / STUDIO_CONFIG_NAME, tmp_path / "model" / STUDIO_CONFIG_NAME)
    window = make_window(
        output=FakeOutput(problem=NO_SOUND),
        wait_loaded=False,
        doctor_probe_factory=snapshot_probe("linux_cpu_only"),
    )
    wizard, page = _to_model_page(qtbot, window)
    assert "tiny" not in page.status.text() and "Model ready" not in page.status.text()
    assert str(tmp_path / "model") in page.status.text()  # says which folder lacks files

    blocking = _Blocking()
    qtbot.mouseClick(page.download, Qt.MouseButton.LeftButton)
    dialog = window.download_dialog
    assert dialog.isVisible() and dialog.window() is not window  # a window of its own
    assert not blocking.blocked(dialog)  # the modal wizard does not block it
    QApplication.instance().removeEventFilter(blocking)
    with FakeHub(tiny_model) as hub:
        dialog.select_source("custom", hub.endpoint)
        with qtbot.waitSignal(dialog.downloads.worker.finished, timeout=RUN_TIMEOUT_MS):
            qtbot.mouseClick(
                dialog.start_button, Qt.MouseButton.LeftButton
            )  # a real click reaches it
    # The last file's row may still have its own signal queued when the worker's ends.
    qtbot.waitUntil(
        lambda: (
            [dialog.table.item(r, 2).text() for r in range(len(MODEL_FILES))]
            == ["verified"] * len(MODEL_FILES)
        ),
        timeout=RUN_TIMEOUT_MS,
    )
    qtbot.waitUntil(lambda: "Model ready" in page.status.text(), timeout=LOAD_TIMEOUT_MS)
    dialog.close()

    wizard.next()
    test_page = wizard.currentPage()
    with qtbot.waitSignal(window.speech.finished, timeout=RUN_TIMEOUT_MS):
        qtbot.mouseClick(test_page.play, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "not played" in test_page.result.text(), timeout=5_000)
    result = test_page.result.text()  # one true sentence: made, noise, and not played
    assert (
        "Played" not in result
        and "heard" not in result
        and NO_SOUND in result
        and "noise" in result
    )
    wizard.next()
    wizard.accept()
    assert settings.first_run_done is True


def test_model_page_says_when_loading_fails_and_when_it_then_succeeds(
    qtbot, make_window, settings, model_copy, tiny_model
):
    (model_copy / "asset" / "Vocos.safetensors").write_bytes(b"not a model")
    settings.first_run_done = False
    settings.model_dir = str(model_copy)
    window = make_window(wait_loaded=False, doctor_probe_factory=snapshot_probe("linux_cpu_only"))
    wizard, page = _to_model_page(qtbot, window)
    qtbot.waitUntil(lambda: "could not be loaded" in page.status.text(), timeout=LOAD_TIMEOUT_MS)
    assert (
        "Vocos.safetensors" in page.status.text() and "Loading the model" not in page.status.text()
    )
    window.model.set_model_dir(str(tiny_model))  # the user picks a good folder
    qtbot.waitUntil(lambda: "Model ready" in page.status.text(), timeout=LOAD_TIMEOUT_MS)
    wizard.close()


def test_qt_s_own_buttons_are_chinese_in_the_chinese_interface(qtbot, window):
    from PySide6.QtWidgets import QDialogButtonBox, QWizard

    window.menus.actions["language.zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
    try:
        window.open_wizard()
        wizard = window.wizard
        labels = [
            wizard.button(b).text()
            for b in (QWizard.WizardButton.NextButton, QWizard.WizardButton.CancelButton)
        ]
        box = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        labels += [b.text() for b in box.buttons()]
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in label) for label in labels), labels
        wizard.close()
    finally:
        window.menus.actions["language.en"].trigger()
