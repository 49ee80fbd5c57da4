"""Help > Keyboard shortcuts: every shortcut of the window, read from its actions and shortcut
objects when the dialog opens, so the list cannot go stale."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)


def window_shortcuts(window) -> list[tuple[str, str]]:
    """(keys, what they do) of every action and shortcut object of `window`, in its language."""
    native = QKeySequence.SequenceFormat.NativeText
    out = []
    for action in window.findChildren(QAction):
        label = action.text().replace("&", "")
        for keys in action.shortcuts():
            if label and not keys.isEmpty():
                out.append((keys.toString(native), label))
    for shortcut in window.findChildren(QShortcut):
        if not shortcut.key().isEmpty() and shortcut.whatsThis():
            out.append((shortcut.key().toString(native), shortcut.whatsThis()))
    return sorted(set(out), key=lambda row: row[1].lower())


class ShortcutsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        rows = window_shortcuts(window)
        self.table = QTableWidget(len(rows), 2)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("Action")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, label) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(keys))
            self.table.setItem(row, 1, QTableWidgetItem(label))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        note = QLabel(
            self.tr(
                "Space pauses while the text box does not have the focus. "
                "Ctrl+click a sentence in the text to play from it."
            )
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(520, 420)
