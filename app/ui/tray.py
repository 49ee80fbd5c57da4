"""The tray icon and its menu: Play clipboard, Pause/Resume, Stop, Show window, Quit.

The menu is an object of its own (`TrayMenu`), so it works and is tested where the platform
has no tray (offscreen, some Linux desktops); the icon itself is made only where one exists.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QStyle, QSystemTrayIcon


def tray_available() -> bool:
    return QSystemTrayIcon.isSystemTrayAvailable()


class TrayMenu(QObject):
    """The tray's actions by id (`actions["tray.play_clipboard"]`), enabled as the speech goes:
    Pause while something plays, named Resume while it is paused."""

    def __init__(
        self,
        play_clipboard: Callable[[], object],
        toggle_pause: Callable[[], object],
        stop: Callable[[], object],
        show_window: Callable[[], object],
        quit_program: Callable[[], object],
        speech,
        parent=None,
    ):
        super().__init__(parent)
        self.menu = QMenu()
        self._closed = False
        self.menu.setObjectName("trayMenu")
        self._speech = speech
        self.actions: dict[str, QAction] = {}
        entries: list[tuple[str, Callable[[], object]]] = [
            ("tray.play_clipboard", play_clipboard),
            ("tray.pause", toggle_pause),
            ("tray.stop", stop),
            ("tray.show", show_window),
            ("tray.quit", quit_program),
        ]
        for entry_id, handler in entries:
            if entry_id == "tray.show":
                self.menu.addSeparator()
            action = self.menu.addAction("")
            action.setObjectName(entry_id)
            action.triggered.connect(lambda _checked=False, h=handler: h())
            self.actions[entry_id] = action
        speech.busyChanged.connect(self.refresh)
        speech.readingAt.connect(self.refresh)
        speech.pausedChanged.connect(self.refresh)
        self.menu.aboutToShow.connect(self.refresh)  # audio that ended says nothing
        self.retranslate()
        self.refresh()

    def refresh(self, *_args) -> None:
        if self._closed:
            return
        self.actions["tray.stop"].setEnabled(self._speech.busy or self._speech.reading.active)
        self.actions["tray.pause"].setEnabled(self._speech.reading.active)
        self._name_pause()

    def _name_pause(self) -> None:
        paused = self._speech.reading.paused
        self.actions["tray.pause"].setText(self.tr("&Resume") if paused else self.tr("&Pause"))

    def retranslate(self) -> None:
        if self._closed:
            return
        for entry_id, text in (
            ("tray.play_clipboard", self.tr("&Play clipboard")),
            ("tray.stop", self.tr("&Stop")),
            ("tray.show", self.tr("Show &window")),
            ("tray.quit", self.tr("&Quit")),
        ):
            self.actions[entry_id].setText(text)
        self._name_pause()

    def close(self) -> None:
        """Gone with the window: its actions call the window, so they would keep it alive."""
        self._closed = True
        self._speech.busyChanged.disconnect(self.refresh)
        self._speech.readingAt.disconnect(self.refresh)
        self._speech.pausedChanged.disconnect(self.refresh)
        for action in self.actions.values():
            action.triggered.disconnect()
        self.menu.deleteLater()


class TrayIcon(QObject):
    """The icon in the tray with `menu`; a click on it shows the window."""

    activated = Signal()

    def __init__(self, menu: TrayMenu, icon: QIcon, parent=None):
        super().__init__(parent)
        self.icon = QSystemTrayIcon(icon, self)
        self.icon.setContextMenu(menu.menu)
        self.icon.activated.connect(self._on_activated)
        self.retranslate()

    def _on_activated(self, reason) -> None:
        if reason in (
            QSystemTrayIcon.ActivationReason.Trigger,
            QSystemTrayIcon.ActivationReason.DoubleClick,
        ):
            self.activated.emit()

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def say(self, text: str) -> None:
        """A short note from the tray (why nothing is read) while the window is hidden."""
        self.icon.showMessage(self.tr("ChatTTS Studio"), text)

    def retranslate(self) -> None:
        self.icon.setToolTip(self.tr("ChatTTS Studio"))


def window_icon(window) -> QIcon:
    """The window's icon, or a standard one where it has none (the tray needs an icon)."""
    icon = window.windowIcon()
    if icon.isNull():
        icon = window.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay)
    return icon
