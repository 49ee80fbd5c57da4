"""The global hotkey pressed for real: an Xvfb display of the test's own, xdotool pressing the
keys as a keyboard would, the window's listener (pynput) hearing them from outside the program.

Xvfb and xdotool are installed by .ci/run; the test is skipped only where they are absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication

from app.ui.hotkey import GlobalHotkey, stop_listener
from tests.ui.conftest import RUN_TIMEOUT_MS
from tests.ui.speech_support import recorded_starts

pytestmark = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
    reason="Xvfb and xdotool are not installed (.ci/run installs them)",
)
CUSTOM = "application/x-chattts-studio-test"


# Several sentences: still being read when the test presses again.
LONG_TEXT = "Read aloud from any program. The second sentence. And a third one to be sure."


def _free_display() -> int:
    for number in range(90, 190):
        if (
            not Path(f"/tmp/.X{number}-lock").exists()
            and not Path(f"/tmp/.X11-unix/X{number}").exists()
        ):
            return number
    raise RuntimeError("no free X display number")


@pytest.fixture
def x_display(monkeypatch):
    """A display of this test's own; DISPLAY points at it, no Wayland in sight."""
    number = _free_display()
    server = subprocess.Popen(
        ["Xvfb", f":{number}", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 20
    while not socket.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"Xvfb :{number} did not start")
        time.sleep(0.05)
    monkeypatch.setenv("DISPLAY", f":{number}")
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    yield f":{number}"
    server.terminate()
    server.wait(10)


@pytest.fixture(autouse=True)
def _clipboard_emptied(qapp):
    """The tests' own clipboard data is made in Python: gone before the process ends (Qt's
    offscreen clipboard would delete it after Python, a crash at exit)."""
    yield
    QGuiApplication.clipboard().clear()


def _pynput_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if type(t).__module__.startswith("pynput")]


def _press(display: str, keys: str) -> None:
    subprocess.run(
        ["xdotool", "key", "--delay", "30", keys],
        env={**os.environ, "DISPLAY": display},
        check=True,
        timeout=30,
    )


def _listening(qtbot, settings, make_window, selection: bool):
    settings.hotkey_enabled = True
    settings.hotkey_reads_selection = selection
    window = make_window()
    hotkey = window.anywhere.hotkey
    assert hotkey.listening, hotkey.problem
    hotkey.wait_listening()
    return window


def test_the_hotkey_reads_the_clipboard_aloud_and_a_second_press_stops(
    qtbot, x_display, settings, make_window, monkeypatch
):
    window = _listening(qtbot, settings, make_window, selection=False)
    requests = recorded_starts(monkeypatch, window)
    QGuiApplication.clipboard().setText(LONG_TEXT)
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        _press(x_display, "ctrl+alt+r")
    assert [r.text for r in requests] == [LONG_TEXT]
    assert requests[0].seed == window.voice_panel.seed_value()
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        _press(x_display, "ctrl+alt+r")
    assert not window.is_busy() and len(requests) == 1
    listener = window.anywhere.hotkey._listener
    window.anywhere.hotkey.stop()
    assert not listener.is_alive()  # its thread ends at once, not at the next key
    assert _pynput_threads() == []


def test_closing_the_window_and_quitting_end_the_listener_s_thread(
    qtbot, x_display, settings, make_window
):
    window = _listening(qtbot, settings, make_window, selection=False)
    assert _pynput_threads() != []
    window.close()
    assert not window.anywhere.hotkey.listening and _pynput_threads() == []
    hotkey = GlobalHotkey()
    assert hotkey.start("Ctrl+Alt+R"), hotkey.problem
    hotkey.wait_listening()
    assert _pynput_threads() != []
    QCoreApplication.instance().aboutToQuit.emit()  # the program quits: no thread outlives it
    assert not hotkey.listening and _pynput_threads() == []


class _FrontProgram(QObject):
    """Stands for the program in front: it hears the copy keys on the X display (as any X
    client would) and puts its selected text on the clipboard, on the GUI thread."""

    copied = Signal()

    def __init__(self, selected: str):
        super().__init__()
        from pynput.keyboard import Key, Listener

        self.copies = 0
        self._ctrl = False
        self.copied.connect(lambda: self._copy(selected), Qt.ConnectionType.QueuedConnection)
        controls = (Key.ctrl, Key.ctrl_l, Key.ctrl_r)

        def press(key):
            if key in controls:
                self._ctrl = True
            elif self._ctrl and getattr(key, "char", None) in ("c", "C", "\x03"):
                self.copied.emit()

        def release(key):
            if key in controls:
                self._ctrl = False

        self.listener = Listener(on_press=press, on_release=release)
        self.listener.start()
        self.listener.wait()

    def _copy(self, selected: str) -> None:
        self.copies += 1
        QGuiApplication.clipboard().setText(selected)

    def stop(self) -> None:
        stop_listener(self.listener)


def test_a_selection_read_sends_the_copy_keys_and_restores_the_clipboard(
    qtbot, x_display, settings, make_window, monkeypatch
):
    window = _listening(qtbot, settings, make_window, selection=True)
    requests = recorded_starts(monkeypatch, window)
    mine = QMimeData()
    mine.setText("the user's own clipboard")
    mine.setData(CUSTOM, b"\x01kept\xfe")
    QGuiApplication.clipboard().setMimeData(mine)
    front = _FrontProgram(LONG_TEXT)
    try:
        with qtbot.waitSignal(window.anywhere.reader.selectionRestored, timeout=RUN_TIMEOUT_MS):
            _press(x_display, "ctrl+alt+r")
    finally:
        front.stop()
    assert front.copies == 1  # the copy keys really went to the display
    assert [r.text for r in requests] == [LONG_TEXT]
    restored = QGuiApplication.clipboard().mimeData()
    assert restored.text() == "the user's own clipboard"
    assert bytes(restored.data(CUSTOM).data()) == b"\x01kept\xfe"
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        _press(x_display, "ctrl+alt+r")  # a second press stops, the clipboard left alone
    assert QGuiApplication.clipboard().text() == "the user's own clipboard"
