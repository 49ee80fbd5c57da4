"""Choosing a voice: a seed (with a dice for a random one), its speaker string, saved voices.

The speaker string field shows the voice in ChatTTS's portable form. While it shows the
seed's own voice, the seed decides; once the user pastes or types another string, that
string decides until the seed is changed again.
"""

from __future__ import annotations

import random

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout, QGroupBox, QHBoxLayout, QInputDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox,
    QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

from app.engine.errors import VoiceError
from app.engine.voice_library import Voice, VoiceLibrary

MAX_SEED = 2**31 - 1


class VoicePanel(QWidget):
    voiceChanged = Signal()

    def __init__(self, library: VoiceLibrary, parent=None):
        super().__init__(parent)
        self.library = library
        self._speaker_from_seed = True

        self.seed = QSpinBox()
        self.seed.setObjectName("seedInput")
        self.seed.setRange(0, MAX_SEED)
        self.dice = QPushButton()
        self.dice.setObjectName("randomVoiceButton")
        self.speaker = QLineEdit()
        self.speaker.setObjectName("speakerString")
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
        saved_buttons.addWidget(self.delete_button)
        self.saved_box = QGroupBox()
        saved_layout = QVBoxLayout(self.saved_box)
        saved_layout.addWidget(self.voices)
        saved_layout.addLayout(saved_buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(self.saved_box, 1)

        self.seed.valueChanged.connect(self._seed_changed)
        self.dice.clicked.connect(self.random_voice)
        self.speaker.textEdited.connect(self._speaker_edited)
        self.copy_button.clicked.connect(self.copy_speaker)
        self.paste_button.clicked.connect(self.paste_speaker)
        self.save_button.clicked.connect(self._ask_and_save)
        self.delete_button.clicked.connect(self.delete_selected)
        self.voices.itemActivated.connect(self._apply_item)
        self.voices.itemClicked.connect(self._apply_item)
        self.refresh()
        self.retranslate()

    # -- the current voice ------------------------------------------------------------
    def seed_value(self) -> int:
        return self.seed.value()

    def explicit_speaker(self) -> str | None:
        """The speaker string to use instead of the seed, or None when the seed decides."""
        text = self.speaker.text().strip()
        return None if self._speaker_from_seed or not text else text

    def set_voice(self, seed: int, speaker: str | None) -> None:
        self.seed.blockSignals(True)
        self.seed.setValue(max(0, min(MAX_SEED, int(seed))))
        self.seed.blockSignals(False)
        self.speaker.setText(speaker or "")
        self._speaker_from_seed = not speaker
        self.voiceChanged.emit()

    def show_seed_speaker(self, speaker: str) -> None:
        """After a run, show the seed's speaker string (copyable) without taking it over."""
        if self._speaker_from_seed:
            self.speaker.setText(speaker)

    def random_voice(self) -> None:
        self.seed.setValue(random.randint(1, 99_999))

    def _seed_changed(self, _value: int) -> None:
        self._speaker_from_seed = True
        self.speaker.clear()
        self.voiceChanged.emit()

    def _speaker_edited(self, _text: str) -> None:
        self._speaker_from_seed = False
        self.voiceChanged.emit()

    def copy_speaker(self) -> None:
        QGuiApplication.clipboard().setText(self.speaker.text())

    def paste_speaker(self) -> None:
        text = QGuiApplication.clipboard().text().strip()
        if text:
            self.speaker.setText(text)
            self._speaker_edited(text)

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
        speaker = self.speaker.text().strip()
        if not speaker:
            QMessageBox.information(self, self.tr("Save voice"), self.tr(
                "Play something with this voice first, so its speaker string is known."))
            return None
        voice = Voice(name=name, speaker=speaker, seed=self.seed.value() if self._speaker_from_seed else None)
        try:
            self.library.save(voice)
        except (VoiceError, OSError) as exc:
            QMessageBox.warning(self, self.tr("Save voice"), str(exc))
            return None
        self.refresh()
        return voice

    def _ask_and_save(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("Save voice"), self.tr("Name of this voice:"))
        if ok and name.strip():
            self.save_current_voice(name.strip())

    def delete_selected(self) -> None:
        item = self.voices.currentItem()
        if item is not None:
            self.library.delete(item.data(Qt.ItemDataRole.UserRole))
            self.refresh()

    def _apply_item(self, item: QListWidgetItem) -> None:
        voice = self.library.get(item.data(Qt.ItemDataRole.UserRole))
        if voice is None:
            return
        if voice.seed is not None:
            self.set_voice(voice.seed, None)
            self.speaker.setText(voice.speaker)
        else:
            self.set_voice(self.seed.value(), voice.speaker)

    # -- language -----------------------------------------------------------------------
    def retranslate(self) -> None:
        self.seed_label.setText(self.tr("Seed"))
        self.speaker_label.setText(self.tr("Speaker"))
        self.dice.setText(self.tr("Random"))
        self.dice.setToolTip(self.tr("Pick a random voice"))
        self.speaker.setPlaceholderText(self.tr("Speaker string (appears after the first run, or paste one)"))
        self.copy_button.setText(self.tr("Copy"))
        self.paste_button.setText(self.tr("Paste"))
        self.saved_box.setTitle(self.tr("Saved voices"))
        self.save_button.setText(self.tr("Save voice..."))
        self.delete_button.setText(self.tr("Delete"))

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
