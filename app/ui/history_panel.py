"""Recent results: replay, export, delete, regenerate with the same settings."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from app.ui.retranslate import Retranslating
from app.engine.library.history import HistoryEntry


def entry_label(entry: HistoryEntry) -> str:
    words = " ".join(entry.text.split())
    if len(words) > 40:
        words = words[:40] + "…"
    when = entry.created.replace("T", " ")[:16]
    return f"{when}  ·  {entry.duration:.1f} s  ·  {words}"


class HistoryPanel(Retranslating, QWidget):
    replayRequested = Signal(str)
    exportRequested = Signal(str)
    deleteRequested = Signal(str)
    regenerateRequested = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setObjectName("historyList")
        self.buttons = {}
        row = QHBoxLayout()
        for key, signal in (("replay", self.replayRequested), ("export", self.exportRequested),
                            ("regenerate", self.regenerateRequested), ("delete", self.deleteRequested)):
            button = QPushButton()
            button.setObjectName(f"history{key.capitalize()}Button")
            button.clicked.connect(lambda _=False, s=signal: self._emit(s))
            self.buttons[key] = button
            row.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        self.list.itemDoubleClicked.connect(lambda _item: self._emit(self.replayRequested))
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.retranslate()
        self._update_buttons()

    def set_entries(self, entries: list[HistoryEntry]) -> None:
        current = self.selected_id()
        self.list.clear()
        for entry in entries:
            item = QListWidgetItem(entry_label(entry))
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            item.setToolTip(entry.text[:500])
            self.list.addItem(item)
            if entry.id == current:
                self.list.setCurrentItem(item)
        self._update_buttons()

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def select(self, entry_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == entry_id:
                self.list.setCurrentRow(row)

    def _emit(self, signal) -> None:
        entry_id = self.selected_id()
        if entry_id:
            signal.emit(entry_id)

    def _update_buttons(self) -> None:
        has = self.selected_id() is not None
        for button in self.buttons.values():
            button.setEnabled(has)

    def retranslate(self) -> None:
        self.buttons["replay"].setText(self.tr("Replay"))
        self.buttons["export"].setText(self.tr("Export..."))
        self.buttons["regenerate"].setText(self.tr("Regenerate"))
        self.buttons["delete"].setText(self.tr("Delete"))
