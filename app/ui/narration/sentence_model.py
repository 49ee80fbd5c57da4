"""The sentence table of one chapter: text, status, duration, take, lock.

Rows are the project's plain Sentence records with the number of takes each has. The model
changes nothing itself: an edited text or a toggled lock is asked for (`editRequested`,
`lockRequested`) and the controller puts the project's answer back with `update_sentence`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from app.ui.narration.status import (
    check_icon,
    check_tooltip,
    check_value,
    status_color,
    status_label,
    status_value,
)

# The take check's value of a row (status.py: "flagged", "checked", "not_checked" or "").
CHECK_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class SentenceRow:
    sentence: object  # app.narration.project Sentence
    takes: int | None = None  # how many takes it has (None: not asked yet)
    take_number: int = 0  # which of them is chosen, from 1; 0 for none


class SentenceTableModel(QAbstractTableModel):
    NUMBER, TEXT, STATUS, DURATION, TAKE, LOCK = range(6)
    editRequested = Signal(object, str)  # sentence id, new text
    lockRequested = Signal(object, bool)  # sentence id, locked

    def __init__(self, parent=None, take_info=None):
        """`take_info(sentence)` -> (takes, chosen number), asked only for rows on screen:
        a chapter of hundreds of sentences opens without reading every sentence's takes."""
        super().__init__(parent)
        self._rows: list[SentenceRow] = []
        self.take_info = take_info
        self.hearing = None  # the id of the sentence heard now (its row in bold), or None

    # -- contents ---------------------------------------------------------------------------
    def set_rows(self, rows: list[SentenceRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[SentenceRow]:
        return list(self._rows)

    def row_of(self, sentence_id) -> int:
        """The row showing sentence `sentence_id`, or -1."""
        for i, row in enumerate(self._rows):
            if row.sentence.id == sentence_id:
                return i
        return -1

    def sentence(self, row: int):
        return self._rows[row].sentence if 0 <= row < len(self._rows) else None

    def update_row(self, row_data: SentenceRow) -> bool:
        """Show a sentence's new state (same id); False if it is not in this chapter."""
        row = self.row_of(row_data.sentence.id)
        if row < 0:
            return False
        self._rows[row] = row_data
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        return True

    def set_hearing(self, sentence_id) -> None:
        """Show sentence `sentence_id` as the one heard (None: none)."""
        rows = {self.row_of(i) for i in (self.hearing, sentence_id) if i is not None}
        self.hearing = sentence_id
        for row in rows - {-1}:
            self.dataChanged.emit(
                self.index(row, 0),
                self.index(row, self.columnCount() - 1),
                [Qt.ItemDataRole.FontRole],
            )

    def update_sentence(self, sentence) -> bool:
        row = self.row_of(sentence.id)
        return row >= 0 and self.update_row(replace(self._rows[row], sentence=sentence))

    # -- Qt's model interface ---------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's own signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008 (Qt's own signature)
        return 0 if parent.isValid() else 6

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        return (
            self.tr("#"),
            self.tr("Text"),
            self.tr("Status"),
            self.tr("Duration"),
            self.tr("Take"),
            self.tr("Lock"),
        )[section]

    def flags(self, index):
        base = super().flags(index)
        if index.column() == self.TEXT:
            return base | Qt.ItemFlag.ItemIsEditable
        if index.column() == self.LOCK:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        s, column = row.sentence, index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.TAKE and row.takes is None and self.take_info is not None:
                count, number = self.take_info(s)
                row = self._rows[index.row()] = replace(row, takes=count, take_number=number)
            return self._display(row, column)
        if role == Qt.ItemDataRole.EditRole and column == self.TEXT:
            return s.text
        if role == Qt.ItemDataRole.CheckStateRole and column == self.LOCK:
            return Qt.CheckState.Checked if s.locked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ForegroundRole and column == self.STATUS:
            color = status_color(s.status)
            return QBrush(QColor(color)) if color else None
        if role == Qt.ItemDataRole.DecorationRole and column == self.STATUS:
            return check_icon(s)
        if role == CHECK_ROLE:
            return check_value(s)
        if role == Qt.ItemDataRole.FontRole and self.hearing is not None and s.id == self.hearing:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.STATUS and getattr(s, "error", None):
                return s.error
            if column == self.STATUS and check_value(s):
                return check_tooltip(s)
            if column == self.TEXT:
                return s.text
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            self.NUMBER,
            self.DURATION,
            self.TAKE,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return s.id
        return None

    def _display(self, row: SentenceRow, column: int):
        s = row.sentence
        if column == self.NUMBER:
            return str(s.index + 1)
        if column == self.TEXT:
            return f"{s.speaker}: {s.text}" if getattr(s, "speaker", None) else s.text
        if column == self.STATUS:
            return status_label(s.status)
        if column == self.DURATION:
            return self.tr("%1 s").replace("%1", f"{s.duration:.1f}") if s.duration else ""
        if column == self.TAKE:
            if not row.takes:
                return ""
            return (
                self.tr("%1 of %2")
                .replace("%1", str(row.take_number or "-"))
                .replace("%2", str(row.takes))
            )
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        s = self.sentence(index.row())
        if s is None:
            return False
        if index.column() == self.TEXT and role == Qt.ItemDataRole.EditRole:
            text = str(value).strip()
            if text and text != s.text:
                self.editRequested.emit(s.id, text)
            return False  # the project's answer updates the row
        if index.column() == self.LOCK and role == Qt.ItemDataRole.CheckStateRole:
            self.lockRequested.emit(s.id, Qt.CheckState(value) == Qt.CheckState.Checked)
            return False
        return False

    @staticmethod
    def status_value(sentence) -> str:
        return status_value(sentence.status)

    def retranslate(self) -> None:
        """Headers and statuses are worded when asked: ask again in the new language."""
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._rows) - 1, self.columnCount() - 1)
            )
