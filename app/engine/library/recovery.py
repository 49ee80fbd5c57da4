"""A damaged library is set aside under a dated name and the newest good backup restored.

Backups use SQLite's backup API (a consistent copy even while another copy of the program
writes) and rotate: only files named like ours inside the backup folder are ever removed.
"""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

from app.atomic import TEMP_SUFFIX
from app.engine.sqlite_file import is_busy

KEEP_BACKUPS = 3
HEALTH_CHECK_TIMEOUT_S = 10.0
_BACKUP_NAME = re.compile(r"library-\d{8}-\d{6}-\d{6}-\d+\.sqlite3")


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def is_healthy(path: Path) -> bool:
    """PRAGMA quick_check says ok (a missing file is not healthy). A file another program keeps
    locked past the timeout says nothing about its health: that raises (the caller's sentence
    asks to close the other copy). It used to count as damaged, and a library locked for over
    10 s would have been set aside and replaced by its last backup."""
    if not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(str(path), timeout=HEALTH_CHECK_TIMEOUT_S)) as con:
            return con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.Error as exc:
        if is_busy(exc):
            raise
        return False


def set_aside(path: Path) -> Path:
    """Rename the damaged file (and its WAL) to a dated name beside it; never deletes it."""
    aside = path.with_name(f"{path.name}.damaged-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while aside.exists():
        n += 1
        aside = aside.with_name(f"{path.name}.damaged-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{n}")
    os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            os.replace(extra, aside.with_name(aside.name + suffix))
    return aside


def backups(folder: Path) -> list[Path]:
    """Our backups, newest first."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if _BACKUP_NAME.fullmatch(p.name) and p.is_file()),
                  key=lambda p: p.name, reverse=True)


def _copy(source: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}{TEMP_SUFFIX}")
    tmp.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(str(source), timeout=10)) as src, \
                closing(sqlite3.connect(str(tmp))) as dst:
            src.backup(dst)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def make_backup(path: Path, folder: Path, keep: int = KEEP_BACKUPS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"library-{_stamp()}-{os.getpid()}.sqlite3"
    _copy(path, target)
    for old in backups(folder)[keep:]:
        old.unlink(missing_ok=True)
    return target


def restore_newest(path: Path, folder: Path) -> Path | None:
    """Copy the newest healthy backup to `path`; the backup used, or None."""
    for candidate in backups(folder):
        if is_healthy(candidate):
            _copy(candidate, path)
            return candidate
    return None
