"""Export failures, each a sentence for the user (the CLI prints it and exits 2; cancel 130)."""

from __future__ import annotations

from pathlib import Path

from app.engine.errors import OutputError, StudioError


class ExportError(OutputError):
    """The export could not be written; nothing was left behind."""


class ExportCancelled(StudioError):
    """The user stopped the export; files already exported before it are untouched."""

    exit_code = 130


def explain_os_error(exc: OSError, target: Path) -> str:
    """The same sentences as the main window's WAV export (one translation each)."""
    from app.engine.audio.wav import explain_os_error as explain

    return explain(exc, target)
