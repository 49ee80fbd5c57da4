"""The main window's model and diagnostics actions: finding, loading, downloading the model,
running the doctor and opening its panel and the first-run wizard.

A mixin of MainWindow (it uses the window's widgets and services); the slots that receive
worker signals stay on MainWindow itself.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from app.doctor.checks import AFFECT_SYNTHESIS
from app.ui.first_run_wizard import FirstRunWizard
from app.engine.models.store import ModelStore


class ModelActions:
    def model_dir(self) -> Path:
        return ModelStore(self.settings.model_dir or None).root

    def run_doctor(self, quick: bool) -> None:
        self.doctor.request.emit(str(self.model_dir()), quick)

    def _update_doctor_banner(self) -> None:
        # Missing model files have their own banner with a folder chooser.
        failed = [r for r in (self.last_report.failed if self.last_report else [])
                  if r.id in AFFECT_SYNTHESIS and r.id != "model_files"]
        if not failed:
            self.doctor_banner.hide()
            return
        self.doctor_banner.show_message(failed[0].summary, "error", self.tr("Open diagnostics"))

    def open_doctor(self) -> None:
        self.doctor_dialog.show()
        self.doctor_dialog.raise_()
        if self.last_report is None:
            self.doctor_panel.start_running()

    def open_wizard(self) -> None:
        if self.wizard is None:
            self.wizard = FirstRunWizard(self)
        self.wizard.restart()
        self.wizard.open()

    def effective_device(self) -> str:
        """The user's choice in settings, else what the doctor recommends."""
        if self.settings.device != "auto":
            return self.settings.device
        return self.recommended_device or "auto"

    def _check_model_presence(self) -> bool:
        """Cheap file checks on the GUI thread; the banner appears at once if files are missing."""
        self.model_status = None
        self._load_error = None
        store = ModelStore(self.settings.model_dir or None)
        self._missing_model = str(store.root) if not store.root.is_dir() or store.missing() else None
        self._update_model_banner()
        if self._missing_model:
            self.status.setText(self.tr("No model"))
            self._set_busy(False)
        return self._missing_model is None

    def load_model(self) -> None:
        if self._check_model_presence():
            self.worker.requestLoad.emit(str(self.model_dir()), self.effective_device(), self.settings.precision)

    def _update_model_banner(self) -> None:
        """Shown from state, so a language switch can say it again in the new language."""
        choose = self.tr("Choose folder...")
        if self._missing_model:
            self.model_banner.show_message(self.tr(
                "No ChatTTS model in %1. Download it, or choose a folder that already holds the "
                "model's asset/ folder.").replace("%1", self._missing_model),
                "warning", choose, self.tr("Download..."))
        elif self._load_error:
            self.model_banner.show_message(self._load_error, "error", choose, self.tr("Download..."))
        elif self.model_status is not None and self.model_status.test_model:
            self.model_banner.show_message(self.tr(
                "This is a random-weight test model: it makes noise, not speech. Choose the "
                "official ChatTTS model folder to hear real speech."), "warning", choose)
        else:
            self.model_banner.hide()

    def choose_model_folder(self, parent=None) -> None:
        """`parent`: the window the chooser belongs to; a modal wizard passes itself, since
        a dialog of the window it blocks could not be clicked."""
        path = QFileDialog.getExistingDirectory(parent or self, self.tr("Choose the ChatTTS model folder"),
                                                str(self.model_dir()))
        if path:
            self.set_model_dir(path)

    def open_download(self, import_from: str | None = None, parent=None):
        """The download dialog for the configured model folder (a new one each time), over
        `parent` (default: this window; see choose_model_folder)."""
        from app.ui.download_dialog import DownloadDialog

        owner = parent or self
        if self.download_dialog is not None:
            if self.download_dialog.running:
                if self.download_dialog.parent() is not owner:
                    self.download_dialog.setParent(owner, self.download_dialog.windowFlags())
                self.download_dialog.show()
                return self.download_dialog
            self.download_dialog.close()
        self.download_dialog = DownloadDialog(str(self.model_dir()), owner, self.settings)
        self.download_dialog.modelReady.connect(self.set_model_dir)
        self.download_dialog.show()
        if import_from:
            self.download_dialog.import_folder(import_from)
        return self.download_dialog

    def import_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Import a ChatTTS model folder"), str(Path.home()))
        if folder:
            self.open_download(import_from=folder)

    def set_model_dir(self, path: str) -> None:
        self.settings.model_dir = path
        self.settings.sync()
        self.load_model()

    def set_device(self, device: str) -> None:
        self.settings.device = device
        self.load_model()

    def set_precision(self, precision: str) -> None:
        self.settings.precision = precision
        self.load_model()

    def _ready_text(self) -> str:
        s = self.model_status
        text = self.tr("Ready: %1 on %2, %3 (loaded in %4 s)").replace("%1", s.kind).replace(
            "%2", s.device).replace("%3", s.decode).replace("%4", f"{s.load_seconds:.1f}")
        if s.precision_asked not in ("", "auto", s.precision):
            text += " " + self.tr("Precision %1 is not available on this device, so %2 runs.").replace(
                "%1", s.precision_asked).replace("%2", s.precision)
        return text
