"""A damaged library is set aside under a dated name and the newest good backup restored.

Backups use SQLite's backup API (a consistent copy even while another copy of the program
writes) and rotate: only files named like ours inside the backup folder are ever removed, and
never the newest one that holds the user's data (an emptied library backed up on every start
would otherwise push it out in three starts; tests/engine/library/test_recovery.py).
"""

from __future__ import annotations

import os
import re
import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path

from app.atomic import TEMP_SUFFIX
from app.core import is_busy

KEEP_BACKUPS = 3
# The tables that hold what the user made; a library with no row in any of them holds nothing to lose.
USER_TABLES = ("history", "voices", "lexicon")
HEALTH_CHECK_TIMEOUT_S = 10.0
_BACKUP_NAME = re.compile(r"library-\d{8}-\d{6}-\d{6}-\d+\.sqlite3")


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")


def is_healthy(path: Path) -> bool:
    """PRAGMA quick_check says ok (a missing file is not healthy). A file another program keeps
    locked past the timeout says nothing about its health: that raises (the caller's sentence
    asks to close the other copy). Counted as damaged, a library merely locked by another copy
    would be set aside and replaced by its last backup."""
    if not path.is_file():
        return False
    try:
        with closing(sqlite3.connect(str(path), timeout=HEALTH_CHECK_TIMEOUT_S)) as con:
            return con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.Error as exc:
        if is_busy(exc):
            raise
        return False


def is_blank(path: Path) -> bool:
    """Missing, or a file with no tables at all: what SQLite makes of a zero-byte file, which
    quick_check calls "ok". Where a backup holds data, such a library is damage, not a new start."""
    if not path.exists():
        return True
    if path.is_file() and path.stat().st_size == 0:
        return True
    try:
        with closing(sqlite3.connect(str(path), timeout=HEALTH_CHECK_TIMEOUT_S)) as con:
            return con.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone() is None
    except sqlite3.Error as exc:
        if is_busy(exc):
            raise
        return False


def holds_data(path: Path) -> bool:
    """Whether a (backup) file has a row in any of the user's tables; an unreadable file holds none."""
    try:
        with closing(sqlite3.connect(str(path), timeout=HEALTH_CHECK_TIMEOUT_S)) as con:
            tables = {
                name
                for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            return any(
                con.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
                for table in USER_TABLES
                if table in tables
            )
    except sqlite3.Error:
        return False


def set_aside(path: Path) -> Path:
    """Rename the damaged file (and its WAL) to a dated name beside it; never deletes it. A WAL
    left without its file goes too: replayed onto a restored backup, it would damage it."""
    aside = path.with_name(f"{path.name}.damaged-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    n = 1
    while aside.exists():
        n += 1
        aside = aside.with_name(
            f"{path.name}.damaged-{datetime.now().strftime('%Y%m%d-%H%M%S')}-{n}"
        )
    if path.exists():
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
    return sorted(
        (p for p in folder.iterdir() if _BACKUP_NAME.fullmatch(p.name) and p.is_file()),
        key=lambda p: p.name,
        reverse=True,
    )


def _copy(source: Path, target: Path) -> None:
    tmp = target.with_name(f".{target.name}.{os.getpid()}{TEMP_SUFFIX}")
    tmp.unlink(missing_ok=True)
    try:
        with (
            closing(sqlite3.connect(str(source), timeout=10)) as src,
            closing(sqlite3.connect(str(tmp))) as dst,
        ):
            src.backup(dst)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def make_backup(path: Path, folder: Path, keep: int = KEEP_BACKUPS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"library-{_stamp()}-{os.getpid()}.sqlite3"
    _copy(path, target)
    ours = backups(folder)
    kept = set(ours[:keep])
    if not any(holds_data(p) for p in kept):
        last_with_data = next((p for p in ours[keep:] if holds_data(p)), None)
        if last_with_data is not None:
            kept.add(last_with_data)
    for old in ours:
        if old not in kept:
            old.unlink(missing_ok=True)
    return target


def newest_with_data(folder: Path) -> Path | None:
    """The newest healthy backup that holds the user's data, or None."""
    return next((p for p in backups(folder) if is_healthy(p) and holds_data(p)), None)


def restore(backup: Path, path: Path) -> None:
    _copy(backup, path)


def restore_newest(path: Path, folder: Path) -> Path | None:
    """Copy the newest healthy backup to `path`, one holding data before an empty one; the
    backup used, or None."""
    healthy = [p for p in backups(folder) if is_healthy(p)]
    chosen = next((p for p in healthy if holds_data(p)), healthy[0] if healthy else None)
    if chosen is not None:
        _copy(chosen, path)
    return chosen
