"""The menu bar: File, Model, Audio, Language, Help."""

from __future__ import annotations

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QActionGroup, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMessageBox

from app import __version__, paths
from app.engine.audio.playback import SoundDeviceOutput, list_output_devices
from app.ui.i18n import apply_language
from app.ui.settings import DEVICES, LANGUAGES, WINDOW_PRECISIONS


class Menus(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        bar = window.menuBar()
        self.file = bar.addMenu("")
        self.text = bar.addMenu("")
        self.model = bar.addMenu("")
        self.audio = bar.addMenu("")
        self.language = bar.addMenu("")
        self.help = bar.addMenu("")

        self.open_text = self.file.addAction("", window.text_panel.choose_file)
        self.open_text.setShortcut(QKeySequence.StandardKey.Open)
        self.export = self.file.addAction("", window.export_current)
        self.file.addSeparator()
        self.quit = self.file.addAction("", window.close)
        self.quit.setShortcut(QKeySequence.StandardKey.Quit)

        self.preview = self.text.addAction("", window.preview)
        self.pronunciations = self.text.addAction("", self.open_pronunciations)
        self.download_model = self.model.addAction("", window.open_download)
        self.import_model = self.model.addAction("", window.import_model_folder)
        self.choose_model = self.model.addAction("", window.choose_model_folder)
        self.model.addSeparator()
        self.device_actions = self._choices(self.model, DEVICES, window.settings.device, window.set_device)
        self.model.addSeparator()
        self.precision_actions = self._choices(self.model, WINDOW_PRECISIONS, window.settings.precision,
                                               window.set_precision)

        self.outputs = QActionGroup(self)
        self.audio.aboutToShow.connect(self._fill_outputs)

        self.language_actions = self._choices(self.language, LANGUAGES, window.settings.language,
                                              self.set_language)
        # Language names are written in their own language, never translated.
        self.language_actions["en"].setText("English")
        self.language_actions["zh_CN"].setText("简体中文")

        self.diagnostics = self.help.addAction("", window.open_doctor)
        self.wizard = self.help.addAction("", window.open_wizard)
        self.help.addSeparator()
        self.open_logs = self.help.addAction("", self._open_log_folder)
        self.about = self.help.addAction("", self._about)

    def _choices(self, menu, values, current: str, pick) -> dict:
        """One checkable action per value, exclusive, calling `pick(value)`; texts come later."""
        group = QActionGroup(self)
        actions = {}
        for value in values:
            action = menu.addAction("")
            action.setCheckable(True)
            action.setChecked(current == value)
            action.triggered.connect(lambda _=False, v=value: pick(v))
            group.addAction(action)
            actions[value] = action
        return actions

    def open_pronunciations(self) -> None:
        from app.ui.pronunciation_dialog import PronunciationDialog

        self.window.pronunciation_dialog = PronunciationDialog(parent=self.window)
        self.window.pronunciation_dialog.open()

    def set_language(self, code: str) -> None:
        self.window.settings.language = code
        self.language_actions[code].setChecked(True)
        apply_language(code)

    def _fill_outputs(self) -> None:
        self.audio.clear()
        names, default = list_output_devices()
        chosen = self.window.settings.output_device
        if not names:
            action = self.audio.addAction(self.tr("No output device found"))
            action.setEnabled(False)
            return
        for name in [""] + names:
            label = self.tr("System default (%1)").replace("%1", default or "?") if name == "" else name
            action = self.audio.addAction(label)
            action.setCheckable(True)
            action.setChecked(name == chosen)
            action.triggered.connect(lambda _=False, n=name: self.set_output(n))
            self.outputs.addAction(action)

    def set_output(self, name: str) -> None:
        self.window.settings.output_device = name
        self.window.use_output(SoundDeviceOutput(name or None))

    def _open_log_folder(self) -> None:
        folder = paths.log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def _about(self) -> None:
        QMessageBox.about(self.window, self.tr("About ChatTTS Studio"), self.tr(
            "<b>ChatTTS Studio %1</b><br>Text to speech on your own computer with the ChatTTS model."
            "<br>Logs: %2").replace("%1", __version__).replace("%2", str(paths.log_dir())))

    def retranslate(self) -> None:
        self.file.setTitle(self.tr("&File"))
        self.open_text.setText(self.tr("&Open text..."))
        self.export.setText(self.tr("&Export WAV..."))
        self.quit.setText(self.tr("&Quit"))
        self.text.setTitle(self.tr("&Text"))
        self.preview.setText(self.tr("&Preview what will be spoken"))
        self.pronunciations.setText(self.tr("P&ronunciations..."))
        self.model.setTitle(self.tr("&Model"))
        self.download_model.setText(self.tr("&Download the model..."))
        self.import_model.setText(self.tr("&Import a model folder..."))
        self.choose_model.setText(self.tr("Choose model &folder..."))
        self.device_actions["auto"].setText(self.tr("Device: automatic"))
        self.device_actions["cpu"].setText(self.tr("Device: CPU"))
        self.device_actions["cuda"].setText(self.tr("Device: NVIDIA GPU (CUDA)"))
        self.precision_actions["auto"].setText(self.tr("Precision: automatic"))
        self.precision_actions["int8"].setText(self.tr("Precision: int8, about 2x faster on a CPU (experimental)"))
        self.precision_actions["bf16"].setText(self.tr("Precision: bf16 (experimental)"))
        self.precision_actions["fp32"].setText(self.tr("Precision: fp32 (exact, slowest)"))
        self.audio.setTitle(self.tr("&Audio"))
        self.language.setTitle(self.tr("&Language"))
        self.language_actions["system"].setText(self.tr("Follow the system"))
        self.help.setTitle(self.tr("&Help"))
        self.diagnostics.setText(self.tr("&Diagnostics..."))
        self.wizard.setText(self.tr("&First-run wizard..."))
        self.open_logs.setText(self.tr("Open the &log folder"))
        self.about.setText(self.tr("&About"))


def build_menus(window) -> Menus:
    return Menus(window)
