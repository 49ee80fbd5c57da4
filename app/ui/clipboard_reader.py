"""Reading the clipboard (or the selection of another program) aloud with the window's voice
and settings: what the tray's Play clipboard and the global hotkey do.

A selection is read by copying it (a simulated Ctrl+C, or Cmd+C on macOS, sent to the program
in front), reading the clipboard, then putting back every format the user had on it, so the
user's clipboard is as it was.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable

from PySide6.QtCore import QMimeData, QObject, QStringListModel, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from app.core import InputTextError, ParameterError
from app.ui.controllers import NotReady

# The program in front needs a moment to answer a copy; a selection read waits this long.
COPY_WAIT_MS = 250


def qt_made_mime_data() -> QMimeData:
    """An empty QMimeData that Qt made, not Python: what the clipboard is given.

    The clipboard deletes the data it holds, on Qt's own platforms (offscreen, minimal) only
    at C exit after Python has gone; one made in Python calls back into Python from its
    destructor then, and the process dies with a segmentation fault."""
    model = QStringListModel([""])
    data = model.mimeData([model.index(0)])  # Qt's `new QMimeData`, with the model's format
    for fmt in data.formats():
        data.removeFormat(fmt)
    return data


def copy_of(data: QMimeData | None) -> QMimeData:
    """Every format of `data`, copied: the clipboard's own object changes under us."""
    saved = qt_made_mime_data()
    if data is not None:
        for fmt in data.formats():
            saved.setData(fmt, data.data(fmt))
    return saved


def send_copy_keys() -> None:
    """Ctrl+C (Cmd+C on macOS) to the program in front, through the hotkey library."""
    from pynput.keyboard import Controller, Key

    keyboard = Controller()
    modifier = Key.cmd if sys.platform == "darwin" else Key.ctrl
    # The hotkey's own modifiers may still be down: Ctrl+Alt+C is not a copy.
    for key in (Key.alt, Key.shift, Key.ctrl, Key.cmd):
        keyboard.release(key)
    with keyboard.pressed(modifier):
        keyboard.press("c")
        keyboard.release("c")


class ClipboardReader(QObject):
    """`read_clipboard()`, `read_selection()`, and `toggle()` (the hotkey: read, or stop)."""

    message = Signal(str)  # why nothing is read (an empty clipboard, no model yet)
    selectionRestored = Signal()  # the user's clipboard is back after a selection read
    readStarted = Signal()  # a read went to the speech controller

    def __init__(self, window, send_copy: Callable[[], None] = send_copy_keys, parent=None):
        super().__init__(parent)
        self._window = window
        self._send_copy = send_copy
        self._saved: QMimeData | None = None

    @property
    def speech(self):
        return self._window.speech

    def toggle(self, selection: bool = False) -> None:
        """A second press while reading stops."""
        if self.speech.busy:
            self.speech.stop()
        elif selection:
            self.read_selection()
        else:
            self.read_clipboard()

    def read_clipboard(self) -> bool:
        return self.read(QGuiApplication.clipboard().text())

    def read(self, text: str) -> bool:
        """Speak `text` with the window's voice and parameters; False (and a message) if not."""
        if self.speech.busy:
            self.speech.stop()
        if not text.strip():
            self.message.emit(self.tr("The clipboard holds no text to read."))
            return False
        try:
            request = dataclasses.replace(self._window.current_request(), text=text)
            started = self.speech.start(request)
        except (InputTextError, ParameterError) as exc:
            self.message.emit(self._window.ui.error_text(exc))
            return False
        except NotReady:
            self.message.emit(self.tr("The model is not loaded yet."))
            return False
        if started:
            self.readStarted.emit()
        return started

    def read_selection(self) -> None:
        """Copy the selection of the program in front, read it, then restore the clipboard."""
        if self._saved is not None:  # a read already waits for its copy
            return
        clipboard = QGuiApplication.clipboard()
        self._saved = copy_of(clipboard.mimeData())
        clipboard.clear()
        try:
            self._send_copy()
        except Exception as exc:  # no keyboard access: the clipboard as it is, said why
            self._restore()
            self.message.emit(
                self.tr("The selection could not be copied: %1").replace("%1", str(exc))
            )
            return
        QTimer.singleShot(COPY_WAIT_MS, self._read_copied)

    def _read_copied(self) -> None:
        text = QGuiApplication.clipboard().text()
        self._restore()
        self.read(text)

    def _restore(self) -> None:
        saved, self._saved = self._saved, None
        if saved is not None:
            QGuiApplication.clipboard().setMimeData(saved)
        self.selectionRestored.emit()
