"""Export settings for a narration: format, one file or one per chapter, subtitles, loudness,
pauses. The values become the project's ExportSettings (validated there)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.ui.retranslate import Retranslating

FORMATS = ["wav", "flac", "mp3", "ogg", "opus", "m4a", "m4b"]
SUBTITLES = [None, "srt", "vtt"]


class ExportDialog(Retranslating, QDialog):
    def __init__(self, settings=None, parent=None):
        super().__init__(parent)
        self.setObjectName("narrationExportDialog")
        self.format = QComboBox()
        self.format.setObjectName("exportFormat")
        self.format.addItems([f.upper() for f in FORMATS])
        self.one_file = QCheckBox()
        self.one_file.setObjectName("exportOneFile")
        self.per_chapter = QCheckBox()
        self.per_chapter.setObjectName("exportPerChapter")
        self.subtitles = QComboBox()
        self.subtitles.setObjectName("exportSubtitles")
        self.subtitles.addItems(["", "SRT", "WebVTT"])
        self.normalize = QCheckBox()
        self.normalize.setObjectName("exportNormalize")
        self.loudness = self._spin("exportLoudness", -40.0, -5.0, 1.0)
        self.sentence_pause = self._spin("exportSentencePause", 0.0, 10.0, 0.1)
        self.chapter_pause = self._spin("exportChapterPause", 0.0, 30.0, 0.5)
        self.normalize.toggled.connect(self.loudness.setEnabled)
        self.form = QFormLayout()
        # Every value field has a label of its own (an empty text makes no label: the spin boxes
        # stood bare); the check boxes carry their own text
        # (test_every_export_field_is_labelled_and_its_unit_translated).
        self.labels: dict[QWidget, QLabel] = {}
        for widget in (
            self.format,
            self.one_file,
            self.per_chapter,
            self.subtitles,
            self.normalize,
            self.loudness,
            self.sentence_pause,
            self.chapter_pause,
        ):
            if isinstance(widget, QCheckBox):
                self.form.addRow(widget)
            else:
                label = self.labels[widget] = QLabel()
                label.setBuddy(widget)
                self.form.addRow(label, widget)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        for box in (
            self.one_file,
            self.per_chapter,
        ):  # at least one of them, as ExportSettings asks
            box.toggled.connect(
                lambda _on: self.ok_button.setEnabled(
                    self.one_file.isChecked() or self.per_chapter.isChecked()
                )
            )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(buttons)
        self.set_settings(settings if settings is not None else self._defaults())
        self.retranslate()

    @staticmethod
    def _spin(name: str, low: float, high: float, step: float) -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setObjectName(name)
        spin.setRange(low, high)
        spin.setSingleStep(step)
        spin.setDecimals(1)
        return spin

    def set_settings(self, s) -> None:
        self.format.setCurrentIndex(FORMATS.index(s.format))
        self.one_file.setChecked(s.one_file)
        self.per_chapter.setChecked(s.per_chapter)
        self.subtitles.setCurrentIndex(SUBTITLES.index(s.subtitles))
        self.normalize.setChecked(s.loudness is not None)
        self.loudness.setEnabled(s.loudness is not None)
        self.loudness.setValue(s.loudness if s.loudness is not None else -18.0)
        self.sentence_pause.setValue(s.sentence_pause)
        self.chapter_pause.setValue(s.chapter_pause)

    def values(self) -> dict:
        """The fields of ExportSettings that this dialog sets."""
        return {
            "format": FORMATS[self.format.currentIndex()],
            "one_file": self.one_file.isChecked(),
            "per_chapter": self.per_chapter.isChecked(),
            "subtitles": SUBTITLES[self.subtitles.currentIndex()],
            "loudness": float(self.loudness.value()) if self.normalize.isChecked() else None,
            "sentence_pause": float(self.sentence_pause.value()),
            "chapter_pause": float(self.chapter_pause.value()),
        }

    @staticmethod
    def _defaults():
        from app.narration.export.settings import ExportSettings

        return ExportSettings()

    def settings(self, base=None):
        """ExportSettings with this dialog's values over `base` (the project's, e.g. its bitrate)."""
        from app.narration.export.settings import ExportSettings

        fields = (base.model_dump() if base is not None else {}) | self.values()
        return ExportSettings(**fields)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Export the narration"))
        for widget, text in (
            (self.format, self.tr("Format")),
            (self.subtitles, self.tr("Subtitles")),
            (self.loudness, self.tr("Target loudness")),
            (self.sentence_pause, self.tr("Pause between sentences")),
            (self.chapter_pause, self.tr("Pause between chapters")),
        ):
            self.labels[widget].setText(text)
        self.loudness.setSuffix(" " + self.tr("LUFS"))
        for spin in (self.sentence_pause, self.chapter_pause):
            spin.setSuffix(" " + self.tr("s", "seconds"))
        self.one_file.setText(self.tr("One file with chapter marks"))
        self.per_chapter.setText(self.tr("One file per chapter"))
        self.subtitles.setItemText(0, self.tr("No subtitles"))
        self.normalize.setText(self.tr("Normalize loudness (EBU R128, peaks under -1 dBTP)"))
