"""The one error a narration project raises: its message is the sentence the user reads."""

from __future__ import annotations

from pathlib import Path

from app.core import DiskFullError, StudioError
from app.i18n import _


class ProjectError(StudioError):
    """A project file that cannot be created, opened, read or changed; the message says why
    and what to do."""


class ProjectDiskFull(ProjectError, DiskFullError):
    """The disk filled while the project was changed (the change was rolled back)."""

    def __init__(self, message: str, folder):
        DiskFullError.__init__(self, message, folder)


def disk_full(project_file) -> ProjectDiskFull:
    folder = Path(project_file).parent
    return ProjectDiskFull(
        _(
            "The disk is full: free space on {folder}; the narration project {file} was not "
            "changed."
        ).format(folder=folder, file=project_file),
        folder,
    )
