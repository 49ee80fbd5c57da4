"""Recent results: replay, export, delete, regenerate with the same settings.

It follows the history controller (new and deleted entries) and plays through the speech
controller; regenerating needs the editor and the voice and parameter panels, so it is asked
of the window (`regenerateRequested`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from app.core import OutputError
from app.i18n import again
from app.library import HistoryEntry
from app.ui.retranslate import Retranslating

# Names Windows reserves for devices, whatever the suffix (superscript digits included).
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"{port}{n}" for port in ("com", "lpt") for n in "0123456789¹²³"),
}


def _words(text: str) -> list[str]:
    """Letters, digits and their combining marks (Devanagari's vowel signs, a decomposed é) of
    any script; punctuation, spaces and what Windows forbids in a name part words."""
    text = unicodedata.normalize("NFC", text)
    return "".join(
        ch if ch.isalnum() or unicodedata.category(ch).startswith("M") else " " for ch in text
    ).split()


def default_export_name(text: str) -> str:
    """The first words of the text joined by "_" (test_default_export_name_is_clean)."""
    stem = "_".join(_words(text)[:6])[:40].strip("_") or "speech"
    if stem.lower() in _RESERVED:
        stem += "_speech"
    return f"{stem}.wav"


def entry_label(entry: HistoryEntry, metrics=None, width: int = 0) -> str:
    """When, how long, and the first words on a second line, cut to `width` pixels of `metrics`
    so that a row is never clipped (test_history_rows_and_the_speaker_field_are_not_clipped)."""
    words = " ".join(entry.text.split())
    if len(words) > 40:
        words = words[:40] + "…"
    if metrics is not None:
        words = metrics.elidedText(words, Qt.TextElideMode.ElideRight, width)
    when = entry.created.replace("T", " ")[:16]
    # The unit in the interface's language (test_history_rows_say_seconds_in_chinese).
    seconds = QCoreApplication.translate("HistoryPanel", "%1 s", "seconds").replace(
        "%1", f"{entry.duration:.1f}"
    )
    return f"{when}  ·  {seconds}\n{words}"


class HistoryPanel(Retranslating, QWidget):
    WORDS_WIDTH = 240  # pixels of a row's words; the list is made wide enough for them

    replayRequested = Signal(str)
    replaying = Signal(str)  # a replay that can be followed sentence by sentence: its text
    exportRequested = Signal(str)
    deleteRequested = Signal(str)
    regenerateRequested = Signal(str)
    retakeRequested = Signal(str)  # try another take of a flagged entry
    message = Signal(str)  # for the status line
    selectionChanged = Signal()

    def __init__(self, history, speech, settings, parent=None):
        super().__init__(parent)
        self.history = history
        self.speech = speech
        self.settings = settings
        self.list = QListWidget()
        self.list.setObjectName("historyList")
        self.list.setMinimumWidth(
            self.WORDS_WIDTH
            + 2 * self.list.frameWidth()
            + self.list.verticalScrollBar().sizeHint().width()
            + 16
        )
        self.buttons = {}
        row = QHBoxLayout()
        for key, signal in (
            ("replay", self.replayRequested),
            ("export", self.exportRequested),
            ("regenerate", self.regenerateRequested),
            ("delete", self.deleteRequested),
        ):
            button = QPushButton()
            button.setObjectName(f"history{key.capitalize()}Button")
            button.clicked.connect(lambda _=False, s=signal: self._emit(s))
            self.buttons[key] = button
            row.addWidget(button)
        # Shown only for a take the checker flagged: one click makes a new entry beside it.
        self.retake_button = QPushButton()
        self.retake_button.setObjectName("historyRetakeButton")
        self.retake_button.clicked.connect(lambda: self._emit(self.retakeRequested))
        self.retake_button.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(self.retake_button)
        self.list.itemDoubleClicked.connect(lambda _item: self._emit(self.replayRequested))
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.replayRequested.connect(self.replay)
        self.exportRequested.connect(self.export_entry)
        self.deleteRequested.connect(self.confirm_delete)
        history.changed.connect(self.refresh)
        history.added.connect(self.select)
        history.takeChecked.connect(self._on_take_checked)
        self._entries: list[HistoryEntry] | None = None  # what the list shows
        self.retranslate()  # fills the list too

    def refresh(self) -> None:
        self.set_entries(self.history.entries())

    def replay(self, entry_id: str) -> None:
        """Plays the entry, or says why nothing is heard (test_replay_without_a_device_says_why)."""
        entry = self.history.get(entry_id)
        if entry is None:
            return
        problem = self.speech.output_problem()
        if problem:
            self.message.emit(again(problem))  # it says already that nothing can be played
        elif self.speech.busy:
            self.message.emit(self.tr("Stop the current speech first, then replay."))
        else:
            try:
                audio = self.history.audio(entry)
            except (OSError, RuntimeError) as exc:  # a missing or damaged file (soundfile's error)
                self.message.emit(
                    self.tr("The audio of this result could not be read: %1").replace(
                        "%1", str(exc)
                    )
                )
                return
            self.speech.play_audio(*audio, marks=entry.marks, text=entry.text)
            if entry.marks:
                self.replaying.emit(entry.text)
            self.message.emit(
                self.tr("Replaying: %1").replace("%1", entry_label(entry).replace("\n", "  ·  "))
            )

    def confirm_delete(self, entry_id: str) -> bool:
        """Deleting removes the audio for good, so it is asked first (test_history_delete_asks_first)."""
        entry = self.history.get(entry_id)
        if entry is None:
            return False
        answer = QMessageBox.question(
            self,
            self.tr("Delete result"),
            self.tr("Delete this result and its audio? This cannot be undone.\n\n%1").replace(
                "%1", entry_label(entry).replace("\n", "  ·  ")
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.history.delete(entry_id)
        return True

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
            self,
            self.tr("Export WAV"),
            str(Path(start_dir) / default_export_name(entry.text)),
            self.tr("WAV audio (*.wav)"),
        )
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
        self._entries = list(entries)
        current = self.selected_id()
        self.list.clear()
        metrics = self.list.fontMetrics()
        for entry in entries:
            item = QListWidgetItem(entry_label(entry, metrics, self.WORDS_WIDTH))
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            item.setToolTip(entry.text[:500])
            if entry.take_check is not None and entry.take_check.flagged:
                item.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
                item.setToolTip(entry.text[:500] + "\n\n" + self.flagged_text(entry))
            self.list.addItem(item)
            if entry.id == current:
                self.list.setCurrentItem(item)
        self._update_buttons()

    def _on_take_checked(self, entry_id: str, check) -> None:
        """The row of a checked entry shows what was found (from memory: the library is not
        read again for it)."""
        if self._entries is None or all(e.id != entry_id for e in self._entries):
            return
        self.set_entries(
            [replace(e, take_check=check) if e.id == entry_id else e for e in self._entries]
        )

    def flagged_text(self, entry: HistoryEntry) -> str:
        """What the take checker found in the entry, a line per finding, in today's language."""
        check = entry.take_check
        reasons = [str(again(f.reason)) for f in check.findings] if check is not None else []
        return "\n".join([self.tr("This take may not be usable:"), *reasons])

    def selected_entry(self) -> HistoryEntry | None:
        entry_id = self.selected_id()
        shown = [e for e in self._entries or [] if e.id == entry_id]
        return shown[0] if shown else None

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
        entry = self.selected_entry()
        check = entry.take_check if entry is not None else None
        self.retake_button.setVisible(check is not None and check.flagged)
        self.selectionChanged.emit()

    def retranslate(self) -> None:
        # The rows shown, said again: a language change reads nothing from disk (the library
        # may be gone, as a finished self-test's is; test_self_test_leaves_no_window_behind).
        if self._entries is None:
            self.refresh()
        else:
            self.set_entries(self._entries)
        self.buttons["replay"].setText(self.tr("Replay"))
        self.buttons["export"].setText(self.tr("Export..."))
        self.buttons["regenerate"].setText(self.tr("Regenerate"))
        self.buttons["delete"].setText(self.tr("Delete"))
        self.retake_button.setText(self.tr("Try another take"))
        self.retake_button.setToolTip(
            self.tr("Make this result again with the next seed, as a new entry; this one stays.")
        )
