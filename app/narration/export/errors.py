"""Export failures, each a sentence for the user (the CLI prints it and exits 2; cancel 130)."""

from __future__ import annotations

import errno
from pathlib import Path

from app.engine.errors import OutputError, StudioError
from app.i18n import _


class ExportError(OutputError):
    """The export could not be written; nothing was left behind."""


class ExportCancelled(StudioError):
    """The user stopped the export; files already exported before it are untouched."""

    exit_code = 130


def explain_os_error(exc: OSError, target: Path) -> str:
    # The same sentences as the WAV export of the main window (one translation each).
    if exc.errno == errno.ENOSPC:
        return _("The disk is full, so {path} could not be written; free some space and export again.").format(
            path=target)
    if isinstance(exc, PermissionError):
        return _("{path} cannot be written: permission denied, or the file is open in another program. "
                 "Close it there or choose another name.").format(path=target)
    return _("{path} could not be written ({error}); choose another location.").format(
        path=target, error=exc.strerror or exc)
