"""Editing the pronunciation dictionary: a two-column table, saved to the user data folder."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from app.library import PronunciationDictionary
from app.ui.retranslate import Retranslating


class PronunciationDialog(Retranslating, QDialog):
    def __init__(self, dictionary: PronunciationDictionary | None = None, parent=None):
        super().__init__(parent)
        self.setObjectName("pronunciationDialog")
        self.dictionary = dictionary or PronunciationDictionary()
        self.help = QLabel()
        self.help.setWordWrap(True)
        self.table = QTableWidget(0, 2)
        self.table.setObjectName("pronunciationTable")
        self.table.horizontalHeader().setStretchLastSection(True)
        self.add_button = QPushButton()
        self.add_button.setObjectName("addPronunciationButton")
        self.remove_button = QPushButton()
        self.remove_button.setObjectName("removePronunciationButton")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        row = QHBoxLayout()
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.help)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        layout.addWidget(self.buttons)
        self.add_button.clicked.connect(lambda: self.add_row("", ""))
        self.remove_button.clicked.connect(self.remove_selected)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        for word, replacement in sorted(self.dictionary.entries.items()):
            self.add_row(word, replacement)
        self.resize(560, 420)
        self.retranslate()

    def add_row(self, word: str, replacement: str) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(word))
        self.table.setItem(row, 1, QTableWidgetItem(replacement))

    def remove_selected(self) -> None:
        for row in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    def entries(self) -> dict[str, str]:
        out = {}
        for row in range(self.table.rowCount()):
            word = (self.table.item(row, 0).text() if self.table.item(row, 0) else "").strip()
            repl = self.table.item(row, 1).text() if self.table.item(row, 1) else ""
            if word:
                out[word] = repl
        return out

    def save(self) -> None:
        self.dictionary.entries = self.entries()
        try:
            self.dictionary.save()
        except OSError as exc:
            QMessageBox.warning(self, self.windowTitle(), exc.strerror or str(exc))
            return
        self.accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Pronunciations"))
        self.help.setText(
            self.tr(
                "Each word on the left is spoken as written on the right, before "
                "anything else happens to the text (e.g. SQL -> sequel, 重庆 -> 虫庆)."
            )
        )
        self.table.setHorizontalHeaderLabels([self.tr("Word"), self.tr("Say it as")])
        self.add_button.setText(self.tr("Add"))
        self.remove_button.setText(self.tr("Remove"))
