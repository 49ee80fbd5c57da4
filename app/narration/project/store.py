"""The project file's connection and transactions, shared by the Project's parts.

Each operation opens its own short-lived connection (the renderer's thread, the window's
thread and the command line never share one). `BEGIN IMMEDIATE` takes the write lock at the
start of a change, so a change is all there or not there when the program is killed; WAL keeps
readers going while a take is written.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing, contextmanager
from pathlib import Path

from app.i18n import _
from app.narration.project.errors import ProjectError

BUSY_TIMEOUT_S = 15.0


class Store:
    def __init__(self, path: Path):
        self.path = Path(path)

    def connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
        con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        return con

    @contextmanager
    def transaction(self):
        """One change: all of it or none of it."""
        try:
            con = self.connect()
        except sqlite3.Error as exc:
            raise self.error(exc) from None
        try:
            con.execute("BEGIN IMMEDIATE")
            yield con
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise self.error(exc) from None
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def rows(self, sql: str, params=()) -> list[tuple]:
        try:
            with closing(self.connect()) as con:
                return con.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self.error(exc) from None

    def error(self, exc: sqlite3.Error) -> ProjectError:
        return ProjectError(_("The narration project {file} could not be read or changed ({reason}); "
                              "close other programs using it and check that the disk is not full.").format(
            file=self.path, reason=exc))
