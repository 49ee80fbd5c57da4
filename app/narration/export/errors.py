"""Export failures, each a sentence for the user (the CLI prints it and exits 2; cancel 130)."""

from __future__ import annotations

from pathlib import Path

from app.core import OutputError, StudioError
from app.i18n import _


class ExportError(OutputError):
    """The export could not be written; nothing was left behind."""


class ExportCancelled(StudioError):
    """The user stopped the export; files already exported before it are untouched."""

    exit_code = 130


def explain_os_error(exc: OSError, target: Path) -> str:
    """The same sentences as the main window's WAV export (one translation each); a full disk
    names the folder to free space on (an export fills it long after the check before it)."""
    from app.audio import explain_os_error as explain
    from app.core import is_disk_full

    if is_disk_full(exc):
        return _(
            "The disk is full: free space on {folder}, then export again; nothing was left half-written."
        ).format(folder=Path(target).parent)
    return explain(exc, target)
