"""Export from the Narration window: settings, where to write, then the worker writes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from app.ui.narration.export_dialog import ExportDialog


def choose_target(parent, project_path: Path | None, settings) -> str | None:
    """The file to write (its name also names the per-chapter files), or None if cancelled."""
    stem = project_path.with_suffix("") if project_path is not None else Path.home() / "narration"
    suggested = f"{stem}.{settings.format}"
    pattern = (
        QCoreApplication.translate("NarrationExport", "%1 audio (*.%2)")
        .replace("%1", settings.format.upper())
        .replace("%2", settings.format)
    )
    path, _filter = QFileDialog.getSaveFileName(
        parent,
        QCoreApplication.translate("NarrationExport", "Export the narration"),
        suggested,
        pattern,
    )
    if not path:
        return None
    if Path(path).suffix.lower() != f".{settings.format}":
        path += f".{settings.format}"
    return path


def run_export_dialog(window, controller) -> bool:
    """Ask, then start the export; False when the user cancelled."""
    dialog = ExportDialog(controller.export_settings(), window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    settings = dialog.settings(controller.export_settings())
    target = choose_target(window, controller.path, settings)
    if target is None:
        return False
    window.say(
        lambda: QCoreApplication.translate("NarrationExport", "Exporting...") + window.noise_note()
    )
    # The save dialog has asked before replacing a file that is there.
    return controller.export(settings, target, overwrite=Path(target).exists())


def show_export_result(window, paths, warnings) -> None:
    """The controller's exportEnded: the files written, or None after a failure."""
    if paths is None:  # the sentence is already in the status line
        QMessageBox.warning(
            window,
            QCoreApplication.translate("NarrationExport", "Export failed"),
            window.status.text(),
        )
        return
    names = ", ".join(Path(p).name for p in paths[:3])
    window.say(
        lambda: (
            QCoreApplication.translate("NarrationExport", "Exported %1 file(s): %2")
            .replace("%1", str(len(paths)))
            .replace("%2", names)
            + window.noise_note()
        )
    )
    if warnings:
        QMessageBox.information(
            window,
            QCoreApplication.translate("NarrationExport", "Exported, with warnings"),
            "\n".join(warnings[:20]),
        )
