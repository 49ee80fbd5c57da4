"""Choosing a voice: a seed (with a dice for a random one), its speaker string, saved voices.

The Speaker field names the voice (a saved voice's name, the seed's voice, a custom voice);
its speaker string, ChatTTS's portable form, is behind Copy and Paste (the raw string reads as
garbled Chinese). While the seed's own voice is in use, the seed decides; once the user pastes
another string, that string decides until the seed is changed again.
"""

from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core import SEED_MAX, StudioError
from app.library import Voice, VoiceLibrary
from app.ui.retranslate import Retranslating
from app.voices import IMPORT_FILTER, decode_speaker, export_voice, import_voice_file

# A QSpinBox holds a signed 32-bit int, so the box offers the lower half of the engine's seeds.
MAX_SEED = min(SEED_MAX, 2**31 - 1)


class VoicePanel(Retranslating, QWidget):
    voiceChanged = Signal()
    auditionRequested = Signal(object)  # Voice
    recordingVoiceRequested = Signal(str, str)  # audio file, transcript
    message = Signal(str)  # for the status line

    def __init__(self, library: VoiceLibrary, speech=None, parent=None):
        """`speech`: the SpeechController that makes voices from recordings."""
        super().__init__(parent)
        self.library = library
        self._speaker_from_seed = True
        self._speaker = ""  # the speaker string, once known
        self._voice_name: str | None = None  # the saved voice in use, if one is
        self._reference: tuple[str, str] | None = None

        self.seed = QSpinBox()
        self.seed.setObjectName("seedInput")
        self.seed.setRange(0, MAX_SEED)
        self.dice = QPushButton()
        self.dice.setObjectName("randomVoiceButton")
        self.speaker = QLineEdit()  # what the voice is, in words
        self.speaker.setObjectName("speakerString")
        self.speaker.setReadOnly(True)
        self.copy_button = QPushButton()
        self.copy_button.setObjectName("copySpeakerButton")
        self.paste_button = QPushButton()
        self.paste_button.setObjectName("pasteSpeakerButton")
        self.voices = QListWidget()
        self.voices.setObjectName("voiceList")
        self.save_button = QPushButton()
        self.save_button.setObjectName("saveVoiceButton")
        self.delete_button = QPushButton()
        self.delete_button.setObjectName("deleteVoiceButton")
        self.import_button = QPushButton()
        self.import_button.setObjectName("importVoiceButton")
        self.export_button = QPushButton()
        self.export_button.setObjectName("exportVoiceButton")
        self.audition_button = QPushButton()
        self.audition_button.setObjectName("auditionButton")
        self.recording_button = QPushButton()
        self.recording_button.setObjectName("voiceFromRecordingButton")

        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(self.dice)
        speaker_row = QHBoxLayout()
        speaker_row.addWidget(self.speaker, 1)
        speaker_row.addWidget(self.copy_button)
        speaker_row.addWidget(self.paste_button)
        self.seed_label = QLabel()
        self.speaker_label = QLabel()
        self.form = QFormLayout()
        self.form.addRow(self.seed_label, seed_row)
        self.form.addRow(self.speaker_label, speaker_row)
        saved_buttons = QHBoxLayout()
        saved_buttons.addWidget(self.save_button)
        saved_buttons.addWidget(self.audition_button)
        saved_buttons.addWidget(self.delete_button)
        more_buttons = QHBoxLayout()
        more_buttons.addWidget(self.import_button)
        more_buttons.addWidget(self.export_button)
        more_buttons.addWidget(self.recording_button)
        self.saved_box = QGroupBox()
        saved_layout = QVBoxLayout(self.saved_box)
        saved_layout.addWidget(self.voices)
        saved_layout.addLayout(saved_buttons)
        saved_layout.addLayout(more_buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(self.saved_box, 1)

        self.seed.valueChanged.connect(self._seed_changed)
        self.dice.clicked.connect(self.random_voice)
        self.copy_button.clicked.connect(self.copy_speaker)
        self.paste_button.clicked.connect(self.paste_speaker)
        self.save_button.clicked.connect(self._ask_and_save)
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

    # -- the current voice ------------------------------------------------------------
    def seed_value(self) -> int:
        return self.seed.value()

    def explicit_speaker(self) -> str | None:
        """The speaker string to use instead of the seed, or None when the seed decides."""
        return None if self._speaker_from_seed or not self._speaker else self._speaker

    def speaker_string(self) -> str:
        """The current voice's speaker string ("" until a Play has made the seed's known)."""
        return self._speaker

    def reference(self) -> tuple[str, str] | None:
        """(audio codes, transcript) of a voice made from a recording, if one is chosen."""
        return self._reference

    def set_voice(
        self,
        seed: int,
        speaker: str | None,
        reference: tuple[str, str] | None = None,
        name: str | None = None,
    ) -> None:
        self.seed.blockSignals(True)
        self.seed.setValue(max(0, min(MAX_SEED, int(seed))))
        self.seed.blockSignals(False)
        self._speaker = speaker or ""
        self._speaker_from_seed = not speaker
        self._reference = reference
        self._voice_name = name or self._saved_name_of(speaker, reference)
        self._voice_shown()

    def _saved_name_of(self, speaker: str | None, reference) -> str | None:
        """The saved voice with this speaker string or recording, if there is one (a restart or a
        history entry names it again)."""
        if not speaker and not reference:
            return None
        codes = reference[0] if reference else None
        return next(
            (
                v.name
                for v in self.library.list()
                if (codes and v.reference == codes)
                or (not codes and speaker and v.speaker == speaker)
            ),
            None,
        )

    def show_seed_speaker(self, speaker: str) -> None:
        """After a run, keep the seed's speaker string (to copy or save) without taking it over."""
        if self._speaker_from_seed:
            self._speaker = speaker or ""
            self._show_voice()

    def voice_text(self) -> str:
        """The voice in words (test_the_speaker_field_names_the_voice_and_copy_paste_the_string)."""
        if self._voice_name:
            return self._voice_name
        if self._reference:
            return self.tr("Voice from a recording")
        if self._speaker_from_seed:
            return self.tr("Voice of seed %1").replace("%1", str(self.seed.value()))
        return self.tr("Custom voice")

    def _show_voice(self) -> None:
        self.speaker.setText(self.voice_text())
        self.speaker.setCursorPosition(0)
        known = bool(self._speaker or self._reference)
        self.save_button.setEnabled(known)
        self.save_button.setToolTip(
            self.tr("Save this voice under a name")
            if known
            else self.tr("Play something with this voice first; then it can be saved")
        )
        self.copy_button.setToolTip(
            self.tr("Copy this voice's speaker string")
            if self._speaker
            else self.tr(
                "Play something with this voice first; then its speaker string can be copied"
            )
        )

    def _voice_shown(self) -> None:
        self._show_voice()
        self.voiceChanged.emit()

    def random_voice(self) -> None:
        self.seed.setValue(random.randint(1, 99_999))

    def _seed_changed(self, _value: int) -> None:
        self._speaker_from_seed = True
        self._speaker = ""
        self._reference = None
        self._voice_name = None
        self._voice_shown()

    def copy_speaker(self) -> None:
        if not self._speaker:
            self.message.emit(
                self.tr(
                    "This voice's speaker string is not known yet: play something "
                    "with it first, then copy."
                )
            )
            return
        QGuiApplication.clipboard().setText(self._speaker)
        self.message.emit(
            self.tr("Copied the speaker string of %1.").replace("%1", self.voice_text())
        )

    def paste_speaker(self) -> None:
        """A pasted speaker string is checked before it is used; nothing pasted says why."""
        text = QGuiApplication.clipboard().text().strip()
        if not text:
            self.message.emit(self.tr("The clipboard holds no text; copy a speaker string first."))
            return
        try:
            decode_speaker(text)
        except StudioError as exc:
            self.message.emit(str(exc))
            return
        self._speaker, self._speaker_from_seed = text, False
        self._reference, self._voice_name = None, None
        self._voice_shown()
        self.message.emit(self.tr("Pasted a custom voice; Play uses it until the seed changes."))

    # -- saved voices -----------------------------------------------------------------
    def refresh(self) -> None:
        self.voices.clear()
        for voice in self.library.list():
            label = voice.name if voice.seed is None else f"{voice.name}  (seed {voice.seed})"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, voice.name)
            item.setToolTip(voice.notes or voice.speaker[:40])
            self.voices.addItem(item)

    def save_current_voice(self, name: str) -> Voice | None:
        speaker = self._speaker
        if not speaker and not self._reference:
            QMessageBox.information(
                self,
                self.tr("Save voice"),
                self.tr("Play something with this voice first, so its speaker string is known."),
            )
            return None
        reference, reference_text = self._reference or (None, None)
        voice = Voice(
            name=name,
            speaker=speaker,
            seed=self.seed.value() if self._speaker_from_seed else None,
            reference=reference,
            reference_text=reference_text,
        )
        try:
            self.library.save(voice)
        except (StudioError, OSError) as exc:
            QMessageBox.warning(self, self.tr("Save voice"), str(exc))
            return None
        self.refresh()
        self._voice_name = voice.name
        self._show_voice()
        self.message.emit(self.tr('Saved the voice "%1".').replace("%1", voice.name))
        return voice

    def _ask_and_save(self) -> None:
        """Asks for a name only when there is a voice to save
        (test_save_voice_keeps_the_name_and_is_offered_once_there_is_a_voice)."""
        if not (self._speaker or self._reference):
            self._show_voice()
            self.message.emit(self.save_button.toolTip())
            return
        name, ok = QInputDialog.getText(
            self, self.tr("Save voice"), self.tr("Name of this voice:"), text=self._voice_name or ""
        )
        if ok and name.strip():
            self.save_current_voice(name.strip())

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
            self.apply_voice(voice)

    def apply_voice(self, voice: Voice) -> None:
        reference = (voice.reference, voice.reference_text or "") if voice.reference else None
        if voice.seed is not None and not reference:
            self.set_voice(voice.seed, None, name=voice.name)
            self.show_seed_speaker(voice.speaker)
        else:
            self.set_voice(
                voice.seed if voice.seed is not None else self.seed.value(),
                voice.speaker or None,
                reference,
                name=voice.name,
            )

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
        self.apply_voice(voice)
        self.message.emit(
            self.tr('Saved the voice "%1" made from the recording.').replace("%1", voice.name)
        )

    def _recording_failed(self, message: str) -> None:
        self.message.emit(message)
        QMessageBox.warning(self, self.tr("Voice from a recording"), message)

    # -- language -----------------------------------------------------------------------
    def retranslate(self) -> None:
        self.seed_label.setText(self.tr("Seed"))
        self.speaker_label.setText(self.tr("Speaker"))
        self.dice.setText(self.tr("Random"))
        self.dice.setToolTip(self.tr("Pick a random voice"))
        self.copy_button.setText(self.tr("Copy"))
        self.paste_button.setText(self.tr("Paste"))
        self.paste_button.setToolTip(self.tr("Use a speaker string copied from elsewhere"))
        self.saved_box.setTitle(self.tr("Saved voices"))
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
        self._show_voice()
