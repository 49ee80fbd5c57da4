"""Recent results: replay, export, delete, regenerate with the same settings.

It follows the history controller (new and deleted entries) and plays through the speech
controller; regenerating needs the editor and the voice and parameter panels, so it is asked
of the window (`regenerateRequested`).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog, QHBoxLayout, QListWidget, QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout, QWidget,
)

from app.engine.errors import OutputError
from app.engine.library.history import HistoryEntry
from app.ui.retranslate import Retranslating


def default_export_name(text: str) -> str:
    words = re.sub(r'[<>:"/\\|?*\x00-\x1f\s]+', " ", text).strip()
    stem = "_".join(words.split()[:6])[:40] or "speech"
    return f"{stem}.wav"


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
    message = Signal(str)         # for the status line
    selectionChanged = Signal()

    def __init__(self, history, speech, settings, parent=None):
        super().__init__(parent)
        self.history = history
        self.speech = speech
        self.settings = settings
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
        self.replayRequested.connect(self.replay)
        self.exportRequested.connect(self.export_entry)
        self.deleteRequested.connect(history.delete)
        history.changed.connect(self.refresh)
        history.added.connect(self.select)
        self.retranslate()
        self.refresh()

    def refresh(self) -> None:
        self.set_entries(self.history.entries())

    def replay(self, entry_id: str) -> None:
        entry = self.history.get(entry_id)
        if entry is not None and not self.speech.busy:
            self.speech.play_audio(*self.history.audio(entry))

    def export_selected(self) -> None:
        entry_id = self.selected_id()
        if entry_id:
            self.export_entry(entry_id)

    def export_entry(self, entry_id: str) -> None:
        entry = self.history.get(entry_id)
        if entry is None:
            return
        start_dir = self.settings.last_export_dir or str(Path.home())
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export WAV"), str(Path(start_dir) / default_export_name(entry.text)),
            self.tr("WAV audio (*.wav)"))
        if path:
            if not path.lower().endswith(".wav"):
                path += ".wav"
            self.export_to(entry_id, path)

    def export_to(self, entry_id: str, path: str) -> bool:
        try:
            self.history.export_to(entry_id, path)
        except (OutputError, OSError) as exc:
            QMessageBox.critical(self, self.tr("Export failed"), str(exc))
            return False
        self.settings.last_export_dir = str(Path(path).parent)
        self.message.emit(self.tr("Exported %1").replace("%1", path))
        return True

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
        self.selectionChanged.emit()

    def retranslate(self) -> None:
        self.buttons["replay"].setText(self.tr("Replay"))
        self.buttons["export"].setText(self.tr("Export..."))
        self.buttons["regenerate"].setText(self.tr("Regenerate"))
        self.buttons["delete"].setText(self.tr("Delete"))
