"""The main window's way into narration: File > New narration from file / Open narration project.

The controller and its window are made on first use, so a session that never narrates starts
no narration thread. The new project takes the main window's current voice (seed or speaker).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog, QMessageBox

from app.core import StudioError

PROJECT_SUFFIX = ".ctsproj"


class NarrationLauncher(QObject):
    def __init__(self, main_window, model, speech, voice, parent=None):
        """`voice()` gives (seed, speaker or None) for a new project."""
        super().__init__(parent)
        self._main = main_window
        self._model, self._speech, self._voice = model, speech, voice
        self.controller = None
        self.window = None

    def _ensure(self):
        if self.window is None:
            from app.ui.narration.controller import NarrationController
            from app.ui.narration.window import NarrationWindow

            self.controller = NarrationController(
                self._model, self._speech, self, render_options=self._render_options
            )
            self.window = NarrationWindow(self.controller, self._main)
        return self.window

    def _render_options(self) -> dict:
        """The main window's text refinement and sampling choices apply to narration too."""
        from app.core import SamplingParams

        v = self._main.params_panel.values()
        return {
            "refine_text": v["refine_text"],
            "sampling": SamplingParams(
                temperature=v["temperature"], top_p=v["top_p"], top_k=v["top_k"]
            ),
        }

    # -- menu actions --------------------------------------------------------------------------
    def new_from_file(self) -> bool:
        source, _filter = QFileDialog.getOpenFileName(
            self._main,
            self.tr("New narration from a file"),
            str(Path.home()),
            self.tr("Books and scripts (*.txt *.md *.markdown *.epub *.srt *.vtt);;All files (*)"),
        )
        if not source:
            return False
        suggested = _free(Path(source).with_suffix(PROJECT_SUFFIX))
        target, _filter = QFileDialog.getSaveFileName(
            self._main,
            self.tr("Save the narration project as"),
            str(suggested),
            self.tr("Narration projects (*.ctsproj)"),
        )
        if not target:
            return False
        if not target.endswith(PROJECT_SUFFIX):
            target += PROJECT_SUFFIX
        return self.create(source, target)

    def open_project(self) -> bool:
        path, _filter = QFileDialog.getOpenFileName(
            self._main,
            self.tr("Open a narration project"),
            str(Path.home()),
            self.tr("Narration projects (*.ctsproj);;All files (*)"),
        )
        return bool(path) and self.open(path)

    # -- the work, without dialogs (tests call these) ---------------------------------------------
    def create(self, source: str, target: str) -> bool:
        window = self._ensure()
        seed, speaker = self._voice()
        try:
            notices = self.controller.create(source, target, seed, speaker)
        except (StudioError, OSError) as exc:
            self._refuse(self.tr("The narration could not be created"), exc)
            return False
        self._show(window, notices)
        return True

    def open(self, path: str) -> bool:
        window = self._ensure()
        try:
            notices = self.controller.open(path)
        except (StudioError, OSError) as exc:
            self._refuse(self.tr("The narration project could not be opened"), exc)
            return False
        self._show(window, notices)
        return True

    def _refuse(self, title: str, exc: Exception) -> None:
        text = (
            str(exc)
            if isinstance(exc, StudioError)
            else f"{exc.strerror or exc}: {exc.filename or ''}"
        )
        QMessageBox.warning(self._main, title, text)

    @staticmethod
    def _show(window, notices: list[str]) -> None:
        window.show_notices(notices)
        window.show()
        window.raise_()
        window.activateWindow()

    def close(self) -> bool:
        """Close the window and stop the narration thread; False if it did not stop in time."""
        if self.window is not None:
            self.window.close()
        return self.controller.shutdown() if self.controller is not None else True


def _free(path: Path) -> Path:
    """`path`, or `name (2).ctsproj`... when it exists: a new project never replaces a file."""
    n = 2
    candidate = path
    while candidate.exists():
        candidate = path.with_name(f"{path.stem} ({n}){path.suffix}")
        n += 1
    return candidate
