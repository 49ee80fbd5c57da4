"""Reading from anywhere, offscreen: the tray menu's actions read the clipboard with the
window's voice and stop it, a platform without a tray says so, closing keeps the program in
the tray as the user answered once, a selection read puts the user's clipboard back, and the
settings persist."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import shiboken6
from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

from app.ui.anywhere_dialog import AnywhereDialog
from app.ui.hotkey import is_valid, to_pynput
from app.ui.settings import Settings
from app.ui.tray import tray_available
from tests.ui.conftest import RUN_TIMEOUT_MS
from tests.ui.speech_support import recorded_starts

CUSTOM = "application/x-chattts-studio-test"


# Several sentences: still being read when the test presses again.
LONG_TEXT = "Read aloud from any program. The second sentence. And a third one to be sure."


@pytest.fixture(autouse=True)
def _clipboard_emptied(qapp):
    """The tests' own clipboard data is made in Python: gone before the process ends (see
    test_the_restored_clipboard_outlives_python_without_a_crash)."""
    yield
    QGuiApplication.clipboard().clear()


def _clipboard(text: str, extra: bytes | None = None) -> None:
    data = QMimeData()
    data.setText(text)
    if extra is not None:
        data.setData(CUSTOM, extra)
    QGuiApplication.clipboard().setMimeData(data)


def test_the_tray_menu_plays_the_clipboard_with_the_window_s_voice_and_stops_it(
    qtbot, window, monkeypatch
):
    menu = window.anywhere.menu
    assert list(menu.actions) == [
        "tray.play_clipboard",
        "tray.pause",
        "tray.stop",
        "tray.show",
        "tray.quit",
    ]
    assert not menu.actions["tray.stop"].isEnabled()
    assert not menu.actions["tray.pause"].isEnabled()  # nothing plays
    window.voice_panel.set_voice(4321, None)
    requests = recorded_starts(monkeypatch, window)
    _clipboard(LONG_TEXT)
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        menu.actions["tray.play_clipboard"].trigger()
    assert [r.text for r in requests] == [LONG_TEXT]
    assert requests[0].seed == 4321 and requests[0].refine_text is False  # the window's settings
    assert menu.actions["tray.stop"].isEnabled()
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        menu.actions["tray.stop"].trigger()
    assert not window.is_busy() and not menu.actions["tray.stop"].isEnabled()
    assert not menu.actions["tray.pause"].isEnabled()


def test_the_tray_pauses_and_resumes_what_it_reads(qtbot, window):
    menu, output = window.anywhere.menu, window.speech.output
    pause = menu.actions["tray.pause"]
    assert pause.text() == "&Pause"
    _clipboard(LONG_TEXT)
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        menu.actions["tray.play_clipboard"].trigger()
    assert pause.isEnabled()
    pause.trigger()
    assert window.speech.reading.paused and output.paused
    assert pause.text() == "&Resume" and pause.isEnabled()
    pause.trigger()
    assert not window.speech.reading.paused and not output.paused
    assert pause.text() == "&Pause"
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        menu.actions["tray.stop"].trigger()
    assert not pause.isEnabled() and pause.text() == "&Pause"


def test_an_empty_clipboard_is_said_and_nothing_starts(window, monkeypatch):
    requests = recorded_starts(monkeypatch, window)
    _clipboard("   ")
    window.anywhere.menu.actions["tray.play_clipboard"].trigger()
    assert requests == [] and not window.is_busy()
    assert window.status.text() == "The clipboard holds no text to read."


def test_show_window_brings_a_hidden_window_back(window):
    window.hide()
    window.anywhere.menu.actions["tray.show"].trigger()
    assert window.isVisible()


def test_without_a_tray_the_setting_says_so_and_is_disabled(qtbot, make_window, settings):
    assert not tray_available()  # offscreen has no tray
    settings.tray_enabled = True
    window = make_window(wait_loaded=False)
    assert window.anywhere.tray is None and not window.anywhere.tray_shown
    dialog = AnywhereDialog(window.anywhere, settings, window)
    qtbot.addWidget(dialog)
    assert not dialog.tray.isEnabled() and not dialog.tray.isChecked()
    assert not dialog.no_tray.isHidden()
    assert dialog.no_tray.text() == "This desktop has no system tray, so there is no icon."


def _fake_tray():
    said: list[str] = []
    return (
        SimpleNamespace(
            icon=SimpleNamespace(isVisible=lambda: True),
            hide=lambda: None,
            say=said.append,
            retranslate=lambda: None,
        ),
        said,
    )


def test_closing_asks_once_and_keeps_the_program_in_the_tray(make_window, settings):
    window = make_window(wait_loaded=False)
    anywhere = window.anywhere
    anywhere.tray, _said = _fake_tray()
    asked, quit_calls = [], []
    anywhere.ask_close = lambda: asked.append(1) or ("tray", True)
    anywhere.quit_application = lambda: quit_calls.append(1)
    window.close()
    assert asked == [1] and not window.isVisible() and not window._closing
    assert settings.close_to_tray == "tray" and Settings().close_to_tray == "tray"
    window.show()
    window.close()  # the answer is remembered: not asked again
    assert asked == [1] and not window.isVisible() and not window._closing
    anywhere.menu.actions["tray.quit"].trigger()  # Quit from the tray really quits
    assert window._closing and quit_calls == [1]


def test_closing_without_remembering_asks_again_and_quit_closes(make_window, settings):
    window = make_window(wait_loaded=False)
    anywhere = window.anywhere
    anywhere.tray, _said = _fake_tray()
    anywhere.quit_application = lambda: None
    answers = iter([("tray", False), ("quit", False)])
    anywhere.ask_close = lambda: next(answers)
    window.close()
    assert not window.isVisible() and not window._closing and settings.close_to_tray == "ask"
    window.show()
    window.close()
    assert window._closing


def test_a_selection_read_speaks_the_copy_and_restores_the_user_s_clipboard(
    qtbot, window, monkeypatch
):
    requests = recorded_starts(monkeypatch, window)
    _clipboard("the user's own clipboard", extra=b"\x00binary\xff")
    reader = window.anywhere.reader
    # The program in front answers the copy keys by putting its selection on the clipboard.
    monkeypatch.setattr(reader, "_send_copy", lambda: _clipboard(LONG_TEXT))
    with qtbot.waitSignal(reader.selectionRestored, timeout=RUN_TIMEOUT_MS):
        reader.toggle(selection=True)
    assert [r.text for r in requests] == [LONG_TEXT]
    restored = QGuiApplication.clipboard().mimeData()
    assert restored.text() == "the user's own clipboard"
    assert bytes(restored.data(CUSTOM).data()) == b"\x00binary\xff"
    assert not shiboken6.createdByPython(restored)  # Qt made it: it may outlive Python
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        reader.toggle(selection=True)  # a second press while reading stops


def test_the_restored_clipboard_outlives_python_without_a_crash(tmp_path):
    """Offscreen, Qt deletes the clipboard's data at C exit, after Python: a copy made in
    Python would end the process with a segmentation fault (exit 139) then."""
    script = textwrap.dedent(
        """
        from PySide6.QtCore import QMimeData
        from PySide6.QtWidgets import QApplication
        from app.ui.clipboard_reader import copy_of

        app = QApplication([])
        mine = QMimeData()
        mine.setText("the user's own clipboard")
        mine.setData("application/x-chattts-studio-test", b"\\x00kept")
        QApplication.clipboard().setMimeData(copy_of(mine))
        print(QApplication.clipboard().text())
        """
    )
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the user's own clipboard"


def test_reading_settings_persist_and_a_hand_edited_choice_falls_back(settings):
    assert (settings.tray_enabled, settings.close_to_tray, settings.hotkey_enabled) == (
        False,
        "ask",
        False,
    )
    assert settings.hotkey == "Ctrl+Alt+R" and settings.hotkey_reads_selection is False
    settings.tray_enabled = True
    settings.close_to_tray = "quit"
    settings.hotkey_enabled = True
    settings.hotkey = "Ctrl+Shift+F9"
    settings.hotkey_reads_selection = True
    settings.sync()
    again = Settings()
    assert (again.tray_enabled, again.close_to_tray, again.hotkey_enabled) == (True, "quit", True)
    assert again.hotkey == "Ctrl+Shift+F9" and again.hotkey_reads_selection is True
    again.q.setValue("tray/close", "sometimes")
    assert again.close_to_tray == "ask"


def test_the_dialog_saves_the_settings_and_puts_them_in_effect(qtbot, make_window, settings):
    window = make_window(wait_loaded=False)
    window.menus.actions["text.anywhere"].trigger()
    dialog = window.anywhere.dialog
    dialog.close_choice.setCurrentIndex(2)
    dialog.keys.setKeySequence("Ctrl+Alt+F2")
    dialog.selection.setChecked(True)
    dialog.hotkey.setChecked(False)
    dialog.accept()
    assert (settings.close_to_tray, settings.hotkey, settings.hotkey_reads_selection) == (
        "quit",
        "Ctrl+Alt+F2",
        True,
    )
    assert not window.anywhere.hotkey.listening
    window.anywhere.open_dialog()
    dialog = window.anywhere.dialog
    dialog.keys.setKeySequence("F2")  # no modifier: refused before it is saved
    assert dialog.problem.text().startswith("Press a combination with Ctrl, Alt or the Windows key")
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    dialog.reject()


@pytest.mark.parametrize(
    ("keys", "combination"),
    [
        ("Ctrl+Alt+R", "<ctrl>+<alt>+r"),
        ("Ctrl+Shift+F9", "<ctrl>+<shift>+<f9>"),
        ("Meta+Space", "<cmd>+<space>"),
        ("Ctrl++", "<ctrl>++"),
    ],
)
def test_qt_key_sequences_become_pynput_combinations(keys, combination):
    assert to_pynput(keys) == combination


@pytest.mark.parametrize("keys", ["", "R", "F2", "Ctrl+A, Ctrl+B", "Shift+R", "Shift+F9"])
def test_a_hotkey_needs_one_key_with_a_modifier(keys):
    assert not is_valid(keys)
