"""The text to speak: an editor with a character count, Open .txt, and .txt drag and drop; the
sentence being heard highlighted in it (and in the preview), Ctrl+click to play from one."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
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


def _reading_format() -> QTextCharFormat:
    """The read-along's mark: dark text on amber, readable in light and dark themes alike."""
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(255, 214, 102))
    fmt.setForeground(QColor(0, 0, 0))
    return fmt


def _mark(editor: QPlainTextEdit, start: int, end: int) -> None:
    """Highlight characters start..end of `editor` and scroll them into view (the user's own
    cursor and selection stay where they are)."""
    document = editor.document()
    last = max(0, document.characterCount() - 1)
    start, end = max(0, min(start, last)), max(0, min(end, last))
    cursor = QTextCursor(document)
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    selection.format = _reading_format()
    editor.setExtraSelections([selection])
    _show(editor, start)


def _show(editor: QPlainTextEdit, position: int) -> None:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    rect = editor.cursorRect(cursor)
    height = editor.viewport().height()
    if rect.top() >= 0 and rect.bottom() <= height:
        return
    bar = editor.verticalScrollBar()
    line = max(1, editor.fontMetrics().lineSpacing())
    # A third of the way down: the sentences before it stay in sight.
    bar.setValue(bar.value() + int((rect.top() - height / 3) / line))


class TextEditor(QPlainTextEdit):
    """Accepts a dropped .txt file as its whole text (other drops behave as usual); Ctrl+click
    asks to play from the sentence clicked."""

    fileDropped = Signal(str)
    sentenceClicked = Signal(int)  # the character clicked with Ctrl held

    def mouseReleaseEvent(self, event):
        super().mouseReleaseEvent(event)
        if (
            event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.sentenceClicked.emit(self.cursorForPosition(event.position().toPoint()).position())

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

    def highlight(self, span: tuple[int, int] | None) -> None:
        """Mark the sentence being heard (None: no mark)."""
        if span is None:
            self.editor.setExtraSelections([])
        else:
            _mark(self.editor, *span)

    def highlight_preview(self, segment: int) -> None:
        """Mark the preview's line of segment `segment` (one line per segment; -1: none)."""
        block = self.preview.document().findBlockByNumber(segment) if segment >= 0 else None
        if block is None or not block.isValid() or not self.preview.isVisible():
            self.preview.setExtraSelections([])
            return
        _mark(self.preview, block.position(), block.position() + block.length() - 1)

    def highlighted(self) -> tuple[int, int] | None:
        """The marked characters of the text (tests, and what the read-along shows)."""
        marks = self.editor.extraSelections()
        if not marks:
            return None
        cursor = marks[0].cursor
        return (cursor.selectionStart(), cursor.selectionEnd())

    def replace_text(self, text: str) -> None:
        """Put `text` in the box as one edit the user can undo (a history replay's text)."""
        cursor = QTextCursor(self.editor.document())
        cursor.beginEditBlock()
        cursor.select(QTextCursor.SelectionType.Document)
        cursor.insertText(text)
        cursor.endEditBlock()

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
