"""The saved voices: the library's list of voices, and deleting, importing, exporting and
auditioning them, and a voice made from a recording and its transcript. The voice panel
(voice_panel.py) shows this box under its seed and speaker fields, applies the voice chosen
here and saves the current voice through its Save button."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
)

from app.core import StudioError
from app.library import Voice, VoiceLibrary
from app.ui.retranslate import Retranslating
from app.voices import IMPORT_FILTER, export_voice, import_voice_file


def _button(name: str) -> QPushButton:
    button = QPushButton()
    button.setObjectName(name)
    return button


class SavedVoicesBox(Retranslating, QGroupBox):
    voiceChosen = Signal(object)  # Voice: the panel makes it the current voice
    auditionRequested = Signal(object)  # Voice
    recordingVoiceRequested = Signal(str, str)  # audio file, transcript
    message = Signal(str)  # for the status line

    def __init__(self, library: VoiceLibrary, speech=None, parent=None):
        """`speech`: the SpeechController that makes voices from recordings."""
        super().__init__(parent)
        self.library = library
        self.voices = QListWidget()
        self.voices.setObjectName("voiceList")
        self.save_button = _button("saveVoiceButton")  # the panel's: it knows the current voice
        self.delete_button = _button("deleteVoiceButton")
        self.import_button = _button("importVoiceButton")
        self.export_button = _button("exportVoiceButton")
        self.audition_button = _button("auditionButton")
        self.recording_button = _button("voiceFromRecordingButton")
        saved_buttons = QHBoxLayout()
        saved_buttons.addWidget(self.save_button)
        saved_buttons.addWidget(self.audition_button)
        saved_buttons.addWidget(self.delete_button)
        more_buttons = QHBoxLayout()
        more_buttons.addWidget(self.import_button)
        more_buttons.addWidget(self.export_button)
        more_buttons.addWidget(self.recording_button)
        saved_layout = QVBoxLayout(self)
        saved_layout.addWidget(self.voices)
        saved_layout.addLayout(saved_buttons)
        saved_layout.addLayout(more_buttons)

        self.delete_button.clicked.connect(self.delete_selected)
        self.voices.itemActivated.connect(self._apply_item)
        self.voices.itemClicked.connect(self._apply_item)
        self.import_button.clicked.connect(self._ask_import)
        self.export_button.clicked.connect(self._ask_export)
        self.audition_button.clicked.connect(self._audition_selected)
        self.recording_button.clicked.connect(self._ask_recording)
        if speech is not None:
            self.recordingVoiceRequested.connect(speech.make_voice)
            speech.referenceReady.connect(self._save_recorded_voice)
            speech.referenceFailed.connect(self._recording_failed)
        self.refresh()
        self.retranslate()

    def refresh(self) -> None:
        self.voices.clear()
        for voice in self.library.list():
            label = voice.name if voice.seed is None else f"{voice.name}  (seed {voice.seed})"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, voice.name)
            item.setToolTip(voice.notes or voice.speaker[:40])
            self.voices.addItem(item)

    def delete_selected(self) -> None:
        item = self.voices.currentItem()
        if item is None:
            self._none_selected()
            return
        self.library.delete(item.data(Qt.ItemDataRole.UserRole))
        self.refresh()

    def selected_voice(self) -> Voice | None:
        item = self.voices.currentItem()
        return self.library.get(item.data(Qt.ItemDataRole.UserRole)) if item else None

    def _none_selected(self) -> None:
        """A saved voice's button with none selected says so
        (test_voice_buttons_without_a_selection_say_why)."""
        self.message.emit(self.tr("Select a saved voice in the list first."))

    def _apply_item(self, item: QListWidgetItem) -> None:
        voice = self.library.get(item.data(Qt.ItemDataRole.UserRole))
        if voice is not None:
            self.voiceChosen.emit(voice)

    def import_file(self, path: str) -> Voice | None:
        try:
            voice = import_voice_file(path)
            if self.library.get(voice.name) is not None:
                voice.name = f"{voice.name} ({Path(path).suffix.lstrip('.') or 'imported'})"
            self.library.save(voice)
        except (StudioError, OSError) as exc:
            QMessageBox.warning(self, self.tr("Import voice"), str(exc))
            return None
        self.refresh()
        return voice

    def _ask_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Import voice"),
            "",
            self.tr("Voice files (%1)").replace("%1", IMPORT_FILTER),
        )
        if path:
            self.import_file(path)

    def _ask_export(self) -> None:
        voice = self.selected_voice()
        if voice is None:
            self._none_selected()
            return
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export voice"), f"{voice.name}.json", self.tr("Voice files (*.json)")
        )
        if path:
            try:
                export_voice(voice, path)
            except OSError as exc:
                QMessageBox.warning(self, self.tr("Export voice"), exc.strerror or str(exc))

    def _audition_selected(self) -> None:
        voice = self.selected_voice()
        if voice is None:
            self._none_selected()
        else:
            self.auditionRequested.emit(voice)

    def _ask_recording(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Voice from a recording"), "", self.tr("Audio (*.wav *.flac *.ogg)")
        )
        if not path:
            return
        transcript, ok = QInputDialog.getText(
            self,
            self.tr("Voice from a recording"),
            self.tr("Exactly what is said in the recording:"),
        )
        if ok and transcript.strip():
            self.recordingVoiceRequested.emit(path, transcript.strip())

    def _save_recorded_voice(self, codes: str, transcript: str, source: str) -> None:
        voice = Voice(
            name=Path(source).stem,
            speaker="",
            reference=codes,
            reference_text=transcript,
            notes=self.tr("Made from %1").replace("%1", Path(source).name),
        )
        self.library.save(voice)
        self.refresh()
        self.voiceChosen.emit(voice)
        self.message.emit(
            self.tr('Saved the voice "%1" made from the recording.').replace("%1", voice.name)
        )

    def _recording_failed(self, message: str) -> None:
        self.message.emit(message)
        QMessageBox.warning(self, self.tr("Voice from a recording"), message)

    def retranslate(self) -> None:
        self.setTitle(self.tr("Saved voices"))
        self.save_button.setText(self.tr("Save voice..."))
        self.delete_button.setText(self.tr("Delete"))
        self.import_button.setText(self.tr("Import..."))
        self.import_button.setToolTip(
            self.tr(
                "A .pt tensor, a ChatTTS-ui .csv, a ChatTTS-Forge .spkv1.json, "
                "a voice file or a speaker string in a .txt"
            )
        )
        self.export_button.setText(self.tr("Export..."))
        self.audition_button.setText(self.tr("Audition"))
        self.audition_button.setToolTip(self.tr("Hear the selected voice say a test sentence"))
        self.recording_button.setText(self.tr("From recording..."))
        self.recording_button.setToolTip(
            self.tr("Make a voice from a recording and its transcript")
        )
