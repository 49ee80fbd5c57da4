"""Text > Reading from anywhere: the tray icon, what closing the window does, the global
hotkey and whether it reads the selection. OK saves them and puts them in effect."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QKeySequenceEdit,
    QLabel,
    QVBoxLayout,
)

from app.ui.hotkey import is_valid
from app.ui.retranslate import Retranslating
from app.ui.settings import CLOSE_CHOICES
from app.ui.tray import tray_available


class AnywhereDialog(Retranslating, QDialog):
    def __init__(self, anywhere, settings, parent=None):
        super().__init__(parent)
        self.setObjectName("anywhereDialog")
        self.anywhere, self.settings = anywhere, settings
        self.tray = QCheckBox()
        self.tray.setObjectName("trayEnabled")
        self.tray.setChecked(settings.tray_enabled and tray_available())
        self.tray.setEnabled(tray_available())
        self.no_tray = QLabel()
        self.no_tray.setObjectName("trayUnavailable")
        self.no_tray.setWordWrap(True)
        self.no_tray.setVisible(not tray_available())
        self.close_choice = QComboBox()
        self.close_choice.setObjectName("closeToTray")
        self.close_choice.addItems([""] * len(CLOSE_CHOICES))
        self.close_choice.setCurrentIndex(CLOSE_CHOICES.index(settings.close_to_tray))
        self.hotkey = QCheckBox()
        self.hotkey.setObjectName("hotkeyEnabled")
        self.hotkey.setChecked(settings.hotkey_enabled)
        self.keys = QKeySequenceEdit(QKeySequence(settings.hotkey))
        self.keys.setObjectName("hotkeyKeys")
        self.keys.setMaximumSequenceLength(1)
        self.selection = QCheckBox()
        self.selection.setObjectName("hotkeySelection")
        self.selection.setChecked(settings.hotkey_reads_selection)
        self.mini = QCheckBox()
        self.mini.setObjectName("miniPlayer")
        self.mini.setChecked(settings.mini_player)
        self.problem = QLabel()
        self.problem.setObjectName("hotkeyProblem")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.keys.keySequenceChanged.connect(self._show_problem)

        self.form = QFormLayout()
        self.form.addRow(self.tray)
        self.form.addRow(self.no_tray)
        self.close_label, self.keys_label = QLabel(), QLabel()
        self.form.addRow(self.close_label, self.close_choice)
        self.form.addRow(self.mini)
        self.form.addRow(self.hotkey)
        self.form.addRow(self.keys_label, self.keys)
        self.form.addRow(self.selection)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.retranslate()
        self._show_problem()

    def keys_text(self) -> str:
        return self.keys.keySequence().toString(QKeySequence.SequenceFormat.PortableText)

    def _show_problem(self, *_args) -> None:
        if not is_valid(self.keys_text()):
            text = self.tr(
                "Press a combination with Ctrl, Alt or the Windows key, such as Ctrl+Alt+R."
            )
        else:
            text = self.anywhere.hotkey.problem or ""
        self.problem.setText(text)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            is_valid(self.keys_text())
        )

    def accept(self) -> None:
        s = self.settings
        s.tray_enabled = self.tray.isChecked()
        s.close_to_tray = CLOSE_CHOICES[self.close_choice.currentIndex()]
        s.hotkey_enabled = self.hotkey.isChecked()
        s.hotkey = self.keys_text()
        s.hotkey_reads_selection = self.selection.isChecked()
        s.mini_player = self.mini.isChecked()
        s.sync()
        self.anywhere.apply()
        super().accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Reading from anywhere"))
        self.tray.setText(self.tr("Show an icon in the system tray (Play clipboard, Stop)"))
        self.no_tray.setText(self.tr("This desktop has no system tray, so there is no icon."))
        self.close_label.setText(self.tr("Closing the window:"))
        for index, text in enumerate(
            (
                self.tr("Ask each time"),
                self.tr("Keep running in the tray"),
                self.tr("Quit"),
            )
        ):
            self.close_choice.setItemText(index, text)
        self.mini.setText(self.tr("Show a small player while reading from the tray or the hotkey"))
        self.hotkey.setText(self.tr("A global hotkey reads the clipboard aloud from any program"))
        self.keys_label.setText(self.tr("Hotkey:"))
        self.selection.setText(
            self.tr("The hotkey reads the selected text (copied, then your clipboard is put back)")
        )
