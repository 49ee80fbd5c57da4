"""Menus built from plain entries, and the first-run wizard built from controllers alone (no
main window): what they do, and that no name of ours hides one of Qt's methods."""

import pytest
from PySide6.QtCore import QThread
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMainWindow, QWidget

from app.selftest.fake_audio import FakeOutput
from app.ui.controllers import DoctorController, ModelController, ModelState, SpeechController
from app.ui.main_menu import DEVICE_LABELS, LANGUAGE_LABELS, PRECISION_LABELS
from app.ui.menus import Entry, Menu, build_menus
from app.ui.settings import DEVICES, LANGUAGES, WINDOW_PRECISIONS
from app.workers.synthesis_worker import WorkerThread
from tests.ui.conftest import LOAD_TIMEOUT_MS
from tests.ui.test_doctor_ui import snapshot_probe


def test_entries_become_actions_that_call_their_handler_and_follow_state(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    state = {"calls": [], "size": "small", "can_save": False}
    pick = lambda v: (state["calls"].append(v), state.update(size=v))  # noqa: E731
    menus = build_menus(
        window.menuBar(),
        [
            Menu(
                "file",
                "&File",
                [
                    Entry(
                        "file.save",
                        "&Save",
                        lambda: state["calls"].append("save"),
                        shortcut="Ctrl+Shift+S",
                        enabled_when=lambda: state["can_save"],
                    ),
                    None,
                    Entry(
                        "size.small",
                        "Small",
                        lambda: pick("small"),
                        checked_when=lambda: state["size"] == "small",
                        group="size",
                    ),
                    Entry(
                        "size.large",
                        "Large",
                        lambda: pick("large"),
                        checked_when=lambda: state["size"] == "large",
                        group="size",
                    ),
                ],
            ),
            Menu(
                "lang", "&Language", [Entry("lang.zh", "简体中文", lambda: None, translated=False)]
            ),
        ],
    )
    save, small, large = (menus.actions[i] for i in ("file.save", "size.small", "size.large"))
    assert [a.text() for a in window.menuBar().actions()] == ["&File", "&Language"]
    assert save.text() == "&Save" and save.shortcut() == QKeySequence("Ctrl+Shift+S")
    assert not save.isEnabled() and small.isChecked() and not large.isChecked()
    assert len([a for a in menus.menus["file"].actions() if a.isSeparator()]) == 1
    large.trigger()
    assert state["calls"] == ["large"] and large.isChecked() and not small.isChecked()
    state["can_save"] = True
    state["size"] = "small"  # changed elsewhere: the menu shows it when it opens
    menus.menus["file"].aboutToShow.emit()
    assert save.isEnabled() and small.isChecked()
    save.trigger()
    assert state["calls"] == ["large", "save"]
    assert menus.actions["lang.zh"].text() == "简体中文"


def test_every_setting_choice_has_a_menu_entry():
    assert list(DEVICE_LABELS) == list(DEVICES)
    assert list(PRECISION_LABELS) == list(WINDOW_PRECISIONS)
    assert list(LANGUAGE_LABELS) == list(LANGUAGES)


@pytest.fixture
def controllers(settings, tmp_path):
    from app.ui.model_folders import ModelFolders

    synthesis = WorkerThread()
    model = ModelController(settings, synthesis)
    doctor = DoctorController(model.model_dir, snapshot_probe("linux_cpu_only"))
    speech = SpeechController(synthesis, model, FakeOutput())
    owner = QWidget()
    yield model, doctor, speech, ModelFolders(model, settings, owner)
    assert synthesis.shutdown() and doctor.shutdown()
    owner.deleteLater()


def test_the_wizard_runs_on_controllers_alone_and_follows_the_model_state(
    qtbot, settings, controllers, tmp_path, tiny_model
):
    from app.ui.first_run_wizard import FirstRunWizard

    model, doctor, speech, folders = controllers
    wizard = FirstRunWizard(settings, model, doctor, speech, folders)
    qtbot.addWidget(wizard)
    for page in wizard.pages:
        assert page.window() is wizard  # Qt's own window(), not an attribute of ours
    wizard.show()
    with qtbot.waitSignal(doctor.reportReady, timeout=LOAD_TIMEOUT_MS):
        wizard.next()  # the diagnostics page asks the doctor controller
    assert wizard.currentPage().panel.item_for("torch_build") is not None
    wizard.next()
    page = wizard.currentPage()
    settings.model_dir = str(tmp_path / "nothing")
    model.check_presence()
    assert model.state is ModelState.MISSING and str(tmp_path / "nothing") in page.status.text()
    with qtbot.waitSignal(
        model.stateChanged, check_params_cb=lambda s: s is ModelState.READY, timeout=LOAD_TIMEOUT_MS
    ):
        model.set_model_dir(str(tiny_model))
    assert page.status.text().startswith("Model ready") and str(tiny_model) in page.status.text()
    wizard.close()


def test_owned_threads_keep_qt_s_thread_method():
    from app.workers.doctor_worker import DoctorThread

    owned = DoctorThread()
    try:
        assert isinstance(owned.qthread, QThread) and owned.qthread.isRunning()
        assert isinstance(owned.thread(), QThread) and owned.thread() is not owned.qthread
        assert owned.worker.thread() is owned.qthread
    finally:
        assert owned.shutdown()
