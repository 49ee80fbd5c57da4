"""The main window's history actions: list, replay, regenerate, delete, export.

A mixin of MainWindow (it uses the window's widgets and services).
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.engine.audio.wav import write_wav
from app.engine.errors import OutputError, StudioError
from app.engine.request import ParameterError


def default_export_name(text: str) -> str:
    words = re.sub(r'[<>:"/\\|?*\x00-\x1f\s]+', " ", text).strip()
    stem = "_".join(words.split()[:6])[:40] or "speech"
    return f"{stem}.wav"


class HistoryActions:
    def refresh_history(self) -> None:
        self.history_panel.set_entries(self.history.entries())
        self._set_busy(self.is_busy())

    def replay(self, entry_id: str) -> None:
        entry = self.history.get(entry_id)
        if entry is None or self.is_busy():
            return
        audio, rate = self.history.audio(entry)
        self.output.start(rate)
        self.output.enqueue(audio)
        self.output.end_stream()

    def regenerate(self, entry_id: str) -> None:
        entry = self.history.get(entry_id)
        if entry is None:
            return
        try:
            request = entry.to_request()
        except ParameterError as exc:
            self.status.setText(self.parameter_error_text(exc))
            return
        except StudioError as exc:
            self.status.setText(str(exc))
            return
        self.text_panel.set_text(request.text)
        reference = (request.reference, request.reference_text or "") if request.reference else None
        self.voice_panel.set_voice(request.seed, request.speaker, reference)
        self.params_panel.load_request(request)
        self.start_request(self.current_request())

    def delete_entry(self, entry_id: str) -> None:
        self.history.delete(entry_id)
        self.refresh_history()

    def export_current(self) -> None:
        entry_id = self.history_panel.selected_id()
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
        entry = self.history.get(entry_id)
        try:
            audio, rate = self.history.audio(entry)
            write_wav(path, audio, rate)
        except (OutputError, OSError) as exc:
            QMessageBox.critical(self, self.tr("Export failed"), str(exc))
            return False
        self.settings.last_export_dir = str(Path(path).parent)
        self.status.setText(self.tr("Exported %1").replace("%1", path))
        return True
