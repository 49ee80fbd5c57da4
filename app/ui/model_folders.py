"""Where the model comes from: choose a folder, import one, or download it, each over the
window that asked (a modal wizard passes itself, since a dialog of the window it blocks could
not be clicked). A verified download or import is handed to the model controller."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog


class ModelFolders(QObject):
    def __init__(self, model, settings, parent):
        super().__init__(parent)
        self._model = model
        self._settings = settings
        self._window = parent
        self.download_dialog = None
        # The download host the last doctor run found silent, or None (the window sets it).
        self.unreachable_host = lambda: None

    def choose(self, parent=None) -> None:
        path = QFileDialog.getExistingDirectory(
            parent or self._window,
            self.tr("Choose the ChatTTS model folder"),
            str(self._model.model_dir()),
        )
        if path:
            self._model.set_model_dir(path)

    def import_folder(self, parent=None) -> None:
        folder = QFileDialog.getExistingDirectory(
            parent or self._window, self.tr("Import a ChatTTS model folder"), str(Path.home())
        )
        if folder:
            self.open_download(import_from=folder, parent=parent)

    def open_download(self, import_from: str | None = None, parent=None):
        """The download dialog for the configured model folder (a new one each time, unless
        one is still running: that one is shown over `parent`)."""
        from app.ui.download_dialog import DownloadDialog

        owner = parent or self._window
        dialog = self.download_dialog
        if dialog is not None:
            if dialog.running:
                if dialog.parent() is not owner:
                    dialog.setParent(owner, dialog.windowFlags())
                dialog.show()
                return dialog
            dialog.close()
        dialog = self.download_dialog = DownloadDialog(
            str(self._model.model_dir()), owner, self._settings, self.unreachable_host
        )
        dialog.modelReady.connect(self._model.set_model_dir)
        dialog.show()
        if import_from:
            dialog.import_folder(import_from)
        return dialog

    def close(self) -> None:
        if self.download_dialog is not None:
            self.download_dialog.close()
