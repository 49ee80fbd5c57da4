"""Opening the library: check, recover, migrate, back up, import legacy files; then transactions.

Each operation opens its own short-lived connection, so the window's thread, the synthesis
worker and a second running copy of the program never share one. `BEGIN IMMEDIATE` takes the
write lock at the start of a change, and `busy_timeout` makes the other writer wait for it.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from app import paths
from app.core import LibraryError, SqliteFile, use_wal
from app.i18n import _
from app.library import notices, recovery
from app.library.migrate import import_legacy
from app.library.notices import Notice
from app.library.schema import migrate

log = logging.getLogger("chattts_studio.library")

DB_NAME = "library.sqlite3"


class Library(SqliteFile):
    def __init__(self, root: Path | str, legacy_dir: Path | str | None = None):
        self.root = Path(root)
        self.path = self.root / DB_NAME
        self.audio_dir = self.root / "audio"
        self.backup_dir = self.root / "backups"
        self.notices: list[Notice] = []
        try:
            self._open()
        except sqlite3.Error as exc:
            raise LibraryError(
                _(
                    "The library {file} cannot be opened ({reason}); close other copies of "
                    "ChatTTS Studio, or check that the folder is writable."
                ).format(file=self.path, reason=exc)
            ) from None
        except OSError as exc:
            raise LibraryError(
                _(
                    "The library folder {folder} cannot be used ({reason}); check that it is "
                    "writable and that the disk is not full."
                ).format(folder=self.root, reason=exc.strerror or exc)
            ) from None
        if legacy_dir is not None:
            self.notices.extend(import_legacy(self, Path(legacy_dir)))
        for notice in self.notices:
            log.warning("%s", notice.message)

    def _open(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if recovery.is_blank(self.path):
            self._restore_blank()
        elif not recovery.is_healthy(self.path):
            aside = recovery.set_aside(self.path)
            used = recovery.restore_newest(self.path, self.backup_dir)
            self.notices.append(
                notices.restored(str(aside), str(used))
                if used
                else notices.damaged_no_backup(str(aside))
            )
        with closing(self.connect()) as con:
            use_wal(con)
            migrate(con, self.path)
        recovery.make_backup(self.path, self.backup_dir)

    def _restore_blank(self) -> None:
        """A missing or empty library where a backup holds data is damage (SQLite finds a
        zero-byte file healthy): the newest such backup comes back and the user is told.
        With no such backup it is a first start (tests/engine/library/test_recovery.py)."""
        backup = recovery.newest_with_data(self.backup_dir)
        if backup is None:
            return
        existed = self.path.exists()
        aside = recovery.set_aside(self.path)
        self.notices.append(
            notices.empty_restored(str(aside), str(backup))
            if existed
            else notices.missing_restored(str(self.path), str(backup))
        )
        recovery.restore(backup, self.path)

    def _error(self, exc: sqlite3.Error) -> LibraryError:
        return LibraryError(
            _(
                "The library {file} could not be read or changed ({reason}); close other "
                "copies of ChatTTS Studio and check that the disk is not full."
            ).format(file=self.path, reason=exc)
        )

    def audio_path(self, row_id: int) -> Path:
        """The audio file of a history row: named by the program from the integer id only."""
        return self.audio_dir / f"{int(row_id)}.wav"


def as_library(source) -> Library:
    """A Library from None (the user's), a Library, or a folder path (tests, portable use)."""
    if source is None:
        return default_library()
    return source if isinstance(source, Library) else Library(source)


_default: dict[str, Library] = {}
_lock = threading.Lock()


def default_library() -> Library:
    """The user's library in the data folder (checked and imported once per process)."""
    root = paths.data_dir() / "library"
    with _lock:
        lib = _default.get(str(root))
        if lib is None:
            lib = _default[str(root)] = Library(root, legacy_dir=paths.data_dir())
        return lib
