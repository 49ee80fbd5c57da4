"""Reading from anywhere: the tray icon, the global hotkey and closing the window to the tray,
put together for the window from the settings (app/ui/settings.py).

The window hands itself in; it calls `keeps_running()` from its closeEvent and `shutdown()`
when it goes. Everything read aloud goes through `ClipboardReader` with the window's voice.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QCheckBox, QDialog, QMessageBox

from app.ui.clipboard_reader import ClipboardReader
from app.ui.hotkey import GlobalHotkey
from app.ui.mini_player import MiniPlayer
from app.ui.settings import CLOSE_ASK, CLOSE_QUITS, CLOSE_TO_TRAY
from app.ui.tray import TrayIcon, TrayMenu, tray_available, window_icon


class ReadingAnywhere(QObject):
    def __init__(self, window, settings, parent=None):
        super().__init__(parent)
        self._window = window
        self._settings = settings
        self._quitting = False
        self.reader = ClipboardReader(window, parent=self)
        self.reader.message.connect(self._say)
        self.reader.message.connect(self._forget_outside)
        self.reader.readStarted.connect(self._on_read_started)
        self._outside = False  # the read being started comes from the tray or the hotkey
        self.mini: MiniPlayer | None = None  # made at the first read that shows it
        self.menu = TrayMenu(
            self.play_clipboard,
            window.speech.toggle_pause,
            window.stop,
            self.show_window,
            self.quit_program,
            window.speech,
            self,
        )
        self.tray: TrayIcon | None = None
        self.dialog: QDialog | None = None
        self.hotkey = GlobalHotkey(self)
        self.hotkey.pressed.connect(self._on_hotkey)
        self.hotkey.failed.connect(self._say)

    # -- the settings in effect ----------------------------------------------------------------
    def apply(self) -> None:
        """Show or hide the tray icon and start or stop the hotkey as the settings say."""
        s = self._settings
        if s.tray_enabled and tray_available():
            if self.tray is None:
                self.tray = TrayIcon(self.menu, window_icon(self._window), self)
                self.tray.activated.connect(self.show_window)
            self.tray.show()
            QApplication.setQuitOnLastWindowClosed(False)  # the tray keeps it running
        elif self.tray is not None:
            self.tray.hide()
            QApplication.setQuitOnLastWindowClosed(True)
        if s.hotkey_enabled:
            if not self.hotkey.start(s.hotkey):
                self._say(self.hotkey.problem or "")
        else:
            self.hotkey.stop()

    @property
    def tray_shown(self) -> bool:
        return self.tray is not None and self.tray.icon.isVisible()

    def play_clipboard(self) -> None:
        """The tray's Play clipboard."""
        self._outside = True
        self.reader.read_clipboard()

    def _on_hotkey(self) -> None:
        self._outside = not self._window.speech.busy  # a second press only stops
        self.reader.toggle(selection=self._settings.hotkey_reads_selection)

    def _on_read_started(self) -> None:
        """A read from the tray or the hotkey shows the mini-player, where the user wants it."""
        outside, self._outside = self._outside, False
        if outside and self._settings.mini_player:
            if self.mini is None:
                self.mini = MiniPlayer(self._window.speech, self._window.stop)
            self.mini.open()

    @property
    def mini_shown(self) -> bool:
        return self.mini is not None and self.mini.isVisible()

    def _forget_outside(self, *_args) -> None:
        self._outside = False

    def _say(self, text: str) -> None:
        self._window.status.setText(text)
        if self.tray is not None and self.tray_shown and not self._window.isVisible():
            self.tray.say(text)

    # -- the window ---------------------------------------------------------------------------
    def show_window(self) -> None:
        self._window.showNormal()
        self._window.raise_()
        self._window.activateWindow()

    def quit_program(self) -> None:
        self._quitting = True
        self._window.close()

    def keeps_running(self) -> bool:
        """From the window's closeEvent: True where the window only hides to the tray (asked
        once, the answer remembered if the user says so)."""
        if self._quitting or not self.tray_shown:
            return False
        choice = self._settings.close_to_tray
        if choice == CLOSE_ASK:
            choice, remember = self.ask_close()  # tests answer it themselves
            if remember:
                self._settings.close_to_tray = choice
        if choice != CLOSE_TO_TRAY:
            return False
        self._window.hide()
        return True

    def quit_application(self) -> None:
        QApplication.quit()

    def ask_close(self) -> tuple[str, bool]:
        box = QMessageBox(self._window)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Close ChatTTS Studio"))
        box.setText(
            self.tr(
                "Keep ChatTTS Studio running in the tray, so the tray menu and the hotkey still "
                "read aloud?"
            )
        )
        keep = box.addButton(self.tr("Keep in the tray"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Quit"), QMessageBox.ButtonRole.DestructiveRole)
        remember = QCheckBox(self.tr("Don't ask again"))
        box.setCheckBox(remember)
        box.exec()
        return (CLOSE_TO_TRAY if box.clickedButton() is keep else CLOSE_QUITS), remember.isChecked()

    def retranslate(self) -> None:
        self.menu.retranslate()  # the mini-player, a window, retranslates itself
        if self.tray is not None:
            self.tray.retranslate()

    def shutdown(self) -> None:
        """The hotkey stops and the icon goes; with the tray shown, the program then quits."""
        self.hotkey.stop()
        shown = self.tray_shown
        if self.tray is not None:
            self.tray.hide()
        self.menu.close()
        if self.mini is not None:
            self.mini.close_for_good()
            self.mini = None
        if shown:
            QApplication.setQuitOnLastWindowClosed(True)
            self.quit_application()

    def open_dialog(self) -> None:
        """Text > Reading from anywhere."""
        from app.ui.anywhere_dialog import AnywhereDialog

        self.dialog = AnywhereDialog(self, self._settings, self._window)
        self.dialog.open()
