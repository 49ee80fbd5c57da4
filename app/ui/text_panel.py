"""The text to speak: an editor with a character count, Open .txt, and .txt drag and drop."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QFileDialog, QHBoxLayout, QLabel, QMessageBox, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget,
)

from app.engine.errors import InputTextError
from app.engine.text import MAX_TEXT_CHARS, read_text_file


def _dropped_text_file(mime) -> Path | None:
    for url in mime.urls() if mime.hasUrls() else []:
        if url.isLocalFile() and url.toLocalFile().lower().endswith(".txt"):
            return Path(url.toLocalFile())
    return None


class TextEditor(QPlainTextEdit):
    """Accepts a dropped .txt file as its whole text (other drops behave as usual)."""

    fileDropped = Signal(str)

    def dragEnterEvent(self, event):
        if _dropped_text_file(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event):
        if _dropped_text_file(event.mimeData()):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event):
        path = _dropped_text_file(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.fileDropped.emit(str(path))
        else:
            super().dropEvent(event)


class TextPanel(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.editor = TextEditor()
        self.editor.setObjectName("textInput")
        self.count = QLabel()
        self.count.setObjectName("charCount")
        self.open_button = QPushButton()
        self.open_button.setObjectName("openTextButton")
        row = QHBoxLayout()
        row.addWidget(self.open_button)
        row.addStretch(1)
        row.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.editor, 1)
        layout.addLayout(row)
        self.editor.textChanged.connect(self._update_count)
        self.editor.fileDropped.connect(self.load_file)
        self.open_button.clicked.connect(self.choose_file)
        self.retranslate()

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        self.editor.setPlainText(text)

    def load_file(self, path: str) -> bool:
        try:
            self.set_text(read_text_file(path))
            return True
        except InputTextError as exc:
            QMessageBox.warning(self, self.tr("Cannot open the file"), str(exc))
            return False

    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open text"), "", self.tr("Text files (*.txt)"))
        if path:
            self.load_file(path)

    def _update_count(self) -> None:
        n = len(self.editor.toPlainText())
        self.count.setText(self.tr("%n character(s)", "", n) + (
            self.tr(" (over the %1 limit)").replace("%1", f"{MAX_TEXT_CHARS:,}") if n > MAX_TEXT_CHARS else ""))

    def retranslate(self) -> None:
        self.editor.setPlaceholderText(self.tr(
            "Type or paste Chinese or English text here, or drop a .txt file."))
        self.open_button.setText(self.tr("Open .txt..."))
        self._update_count()

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
