"""The global hotkey: a key combination heard from any program (pynput's GlobalHotKeys, on
Windows, X11 and macOS alike).

pynput listens on a thread of its own; a press is posted to the GUI thread through a queued
signal, so the listener never waits for the window and the window never waits for it.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence

log = logging.getLogger("chattts_studio.ui")

# Qt's names of the modifiers (QKeySequence's portable text) and pynput's.
MODIFIERS = {"ctrl": "<ctrl>", "alt": "<alt>", "shift": "<shift>", "meta": "<cmd>"}
NAMED_KEYS = {
    "space": "<space>",
    "tab": "<tab>",
    "return": "<enter>",
    "enter": "<enter>",
    "ins": "<insert>",
    "del": "<delete>",
    "home": "<home>",
    "end": "<end>",
    "pgup": "<page_up>",
    "pgdown": "<page_down>",
    "pause": "<pause>",
    "print": "<print_screen>",
}
ALIVE_CHECK_MS = 1000  # a listener that cannot listen ends within this
STOP_WAIT_S = 2.0  # a stopped listener's thread ends within this
FUNCTION_KEYS = {f"f{n}": f"<f{n}>" for n in range(1, 21)}


def to_pynput(keys: str) -> str:
    """ "Ctrl+Alt+R" -> "<ctrl>+<alt>+r"; ValueError for no key, several keys, or no modifier
    but Shift (the listener does not swallow keys: Shift+R would read at every capital R)."""
    sequence = QKeySequence(keys)
    if sequence.count() != 1:
        raise ValueError(keys)
    text = sequence.toString(QKeySequence.SequenceFormat.PortableText)
    parts = text.split("+")
    if text.endswith("++"):  # Ctrl++: the key is "+" itself
        parts = [*text[:-2].split("+"), "+"]
    *mods, key = parts
    names = [MODIFIERS.get(m.lower()) for m in mods]
    if None in names or not set(names) - {"<shift>"}:
        raise ValueError(keys)
    lowered = key.lower()
    if len(key) == 1:
        last = lowered
    elif lowered in NAMED_KEYS or lowered in FUNCTION_KEYS:
        last = NAMED_KEYS.get(lowered) or FUNCTION_KEYS[lowered]
    else:
        raise ValueError(keys)
    return "+".join([*(n for n in names if n), last])


def stop_listener(listener) -> None:
    """Stop a pynput listener and wait a moment for its thread.

    On X11 pynput disables its recording on the very connection that waits for it, so the
    thread ends only at the next key pressed; the same request on its other connection ends it
    now. A listener that died before it listened would wait forever in stop(): left alone."""
    if not listener.is_alive():
        return
    listener.stop()
    display, context = getattr(listener, "_display_stop", None), getattr(listener, "_context", None)
    if display is not None and context is not None:
        try:
            display.record_disable_context(context)
            display.flush()
        except Exception:  # already ended and closed: nothing to wake
            pass
    listener.join(STOP_WAIT_S)


def is_valid(keys: str) -> bool:
    try:
        to_pynput(keys)
    except ValueError:
        return False
    return True


class GlobalHotkey(QObject):
    """`start(keys)` listens (True) or says why not (`problem`); `pressed` on the GUI thread."""

    pressed = Signal()
    failed = Signal(str)  # the listener died after it started; why, in words
    _heard = Signal()  # emitted on pynput's thread; queued to this object's thread

    def __init__(self, parent=None):
        super().__init__(parent)
        self._listener: Any = None  # pynput's GlobalHotKeys, a thread
        self.problem: str | None = None  # why the last start failed, for the settings dialog
        self._heard.connect(self.pressed, Qt.ConnectionType.QueuedConnection)
        # The listener's thread and its X connections end with the program, not after it.
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.stop)

    @property
    def listening(self) -> bool:
        return self._listener is not None

    def start(self, keys: str) -> bool:
        """Listen for `keys`; False with `problem` set where that cannot even begin. A listener
        whose thread dies at once (a display without the RECORD extension) is found a moment
        later: `failed` then says why."""
        self.stop()
        try:
            combination = to_pynput(keys)
        except ValueError:
            self.problem = self.tr(
                "%1 is not a key combination with Ctrl, Alt or the Windows key."
            ).replace("%1", keys)
            return False
        try:
            from pynput.keyboard import GlobalHotKeys

            listener = GlobalHotKeys({combination: self._heard.emit})
            listener.daemon = True
            listener.start()
        except Exception as exc:  # no library, no X display, a refused event tap
            log.warning("the global hotkey %s could not be registered: %s", keys, exc)
            self.problem = self._cannot(" ".join(str(exc).split()) or type(exc).__name__)
            return False
        self._listener, self.problem = listener, None
        QTimer.singleShot(ALIVE_CHECK_MS, lambda: self._check_alive(listener))
        return True

    def _cannot(self, why: str) -> str:
        return self.tr("The global hotkey could not be registered: %1").replace("%1", why)

    def _check_alive(self, listener) -> None:
        if listener is self._listener and not listener.is_alive():
            self._listener = None
            self.problem = self._cannot(self.tr("the listener stopped at once"))
            log.warning("the global hotkey listener stopped at once")
            self.failed.emit(self.problem)

    def wait_listening(self) -> None:
        """Until the listener hears keys (tests press them only then)."""
        if self._listener is not None:
            self._listener.wait()

    def stop(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            stop_listener(listener)
