"""The project file's connection and transactions, shared by the Project's parts.

Each operation opens its own short-lived connection (the renderer's thread, the window's
thread and the command line never share one). `BEGIN IMMEDIATE` takes the write lock at the
start of a change, so a change is all there or not there when the program is killed; WAL keeps
readers going while a take is written.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.core import SqliteFile, is_disk_full
from app.i18n import _
from app.narration.project.errors import ProjectError, disk_full


class Store(SqliteFile):
    def __init__(self, path: Path):
        self.path = Path(path)

    def error(self, exc: sqlite3.Error) -> ProjectError:
        if is_disk_full(exc):
            return disk_full(self.path)
        return ProjectError(
            _(
                "The narration project {file} could not be read or changed ({reason}); "
                "close other programs using it and check that the disk is not full."
            ).format(file=self.path, reason=exc)
        )

    _error = error
