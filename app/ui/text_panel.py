"""The text to speak: an editor with a character count, Open .txt, and .txt drag and drop."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core import InputTextError
from app.text import BUTTONS, MAX_TEXT_CHARS, read_text_file
from app.ui.retranslate import Retranslating


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


class TextPanel(Retranslating, QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.editor = TextEditor()
        self.editor.setObjectName("textInput")
        self.count = QLabel()
        self.count.setObjectName("charCount")
        self.open_button = QPushButton()
        self.open_button.setObjectName("openTextButton")
        self.preview_button = QPushButton()
        self.preview_button.setObjectName("previewButton")
        self.token_buttons = {}
        tools = QHBoxLayout()
        for token, name in zip(BUTTONS, ("insertUvBreak", "insertLaugh", "insertLbreak")):
            button = QPushButton(token)
            button.setObjectName(name)
            button.clicked.connect(lambda _=False, t=token: self.insert_token(t))
            self.token_buttons[token] = button
            tools.addWidget(button)
        tools.addStretch(1)
        tools.addWidget(self.preview_button)
        row = QHBoxLayout()
        row.addWidget(self.open_button)
        row.addStretch(1)
        row.addWidget(self.count)
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("previewText")
        self.preview.setReadOnly(True)
        self.preview.setMaximumHeight(120)
        self.preview.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(tools)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.preview)
        layout.addLayout(row)
        self.editor.textChanged.connect(self._update_count)
        self.editor.fileDropped.connect(self.load_file)
        self.open_button.clicked.connect(self.choose_file)
        self.retranslate()

    def text(self) -> str:
        return self.editor.toPlainText()

    def insert_token(self, token: str) -> None:
        self.editor.insertPlainText(token)
        self.editor.setFocus()

    def show_preview(self, text: str) -> None:
        self.preview.setPlainText(text)
        self.preview.show()

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
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Open text"), "", self.tr("Text files (*.txt)")
        )
        if path:
            self.load_file(path)

    def _update_count(self) -> None:
        n = len(self.editor.toPlainText())
        self.count.setText(
            self.tr("%n character(s)", "", n)
            + (
                self.tr(" (over the %1 limit)").replace("%1", f"{MAX_TEXT_CHARS:,}")
                if n > MAX_TEXT_CHARS
                else ""
            )
        )

    def retranslate(self) -> None:
        self.editor.setPlaceholderText(
            self.tr("Type or paste Chinese or English text here, or drop a .txt file.")
        )
        self.open_button.setText(self.tr("Open .txt..."))
        self.preview_button.setText(self.tr("Preview"))
        self.preview_button.setToolTip(self.tr("Show exactly what will be spoken"))
        tips = {
            "[uv_break]": self.tr("Insert a short pause"),
            "[laugh]": self.tr("Insert a laugh"),
            "[lbreak]": self.tr("Insert a long pause"),
        }
        for token, button in self.token_buttons.items():
            button.setToolTip(tips[token])
        self._update_count()
