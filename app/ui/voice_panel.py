"""Choosing a voice: a seed (with a dice for a random one), its speaker string, saving it; the
saved voices below are saved_voices.py's box, whose chosen voice becomes the current one.

The Speaker field names the voice (a saved voice's name, the seed's voice, a custom voice);
its speaker string, ChatTTS's portable form, is behind Copy and Paste (the raw string reads as
garbled Chinese). While the seed's own voice is in use, the seed decides; once the user pastes
another string, that string decides until the seed is changed again.
"""

from __future__ import annotations

import random

from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core import SEED_MAX, StudioError
from app.library import Voice, VoiceLibrary
from app.ui.retranslate import Retranslating
from app.ui.saved_voices import SavedVoicesBox
from app.voices import decode_speaker

# A QSpinBox holds a signed 32-bit int, so the box offers the lower half of the engine's seeds.
MAX_SEED = min(SEED_MAX, 2**31 - 1)


class VoicePanel(Retranslating, QWidget):
    voiceChanged = Signal()
    auditionRequested = Signal(object)  # Voice (the saved voices' Audition)
    message = Signal(str)  # for the status line

    def __init__(self, library: VoiceLibrary, speech=None, parent=None):
        """`speech`: the SpeechController that makes voices from recordings (saved_voices.py)."""
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
        self.saved = SavedVoicesBox(library, speech)
        self.save_button = self.saved.save_button  # shown there, enabled by the current voice

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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(self.saved, 1)

        self.seed.valueChanged.connect(self._seed_changed)
        self.dice.clicked.connect(self.random_voice)
        self.copy_button.clicked.connect(self.copy_speaker)
        self.paste_button.clicked.connect(self.paste_speaker)
        self.save_button.clicked.connect(self._ask_and_save)
        self.saved.voiceChosen.connect(self.apply_voice)
        self.saved.auditionRequested.connect(self.auditionRequested)
        self.saved.message.connect(self.message)
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

    # -- saving the current voice, using a saved one ---------------------------------
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
        self.saved.refresh()
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

    # -- language -----------------------------------------------------------------------
    def retranslate(self) -> None:
        self.seed_label.setText(self.tr("Seed"))
        self.speaker_label.setText(self.tr("Speaker"))
        self.dice.setText(self.tr("Random"))
        self.dice.setToolTip(self.tr("Pick a random voice"))
        self.copy_button.setText(self.tr("Copy"))
        self.paste_button.setText(self.tr("Paste"))
        self.paste_button.setToolTip(self.tr("Use a speaker string copied from elsewhere"))
        self._show_voice()
