"""One SQLite file used by several threads and programs at once (the library, a narration
project): each operation opens its own short-lived connection, `BEGIN IMMEDIATE` takes the write
lock at the start of a change (all of it or none of it when the program is killed), and
`busy_timeout` makes a second writer wait instead of failing."""

from __future__ import annotations

import errno
import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing, contextmanager
from pathlib import Path

BUSY_TIMEOUT_S = 15.0
WAL_RETRY_S = 0.05


def connect(path: Path | str) -> sqlite3.Connection:
    con = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
    con.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return con


def select(columns: Sequence[str]) -> str:
    """`a, b, c`: the column part of a SELECT from a table's one column list."""
    return ", ".join(columns)


def insert(table: str, columns: Sequence[str], verb: str = "INSERT") -> str:
    """`INSERT INTO table (a, b) VALUES (:a, :b)`: values go by name (a dict or a named row)."""
    named = ", ".join(f":{c}" for c in columns)
    return f"{verb} INTO {table} ({select(columns)}) VALUES ({named})"


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether the error is another connection holding the file, not something wrong with it."""
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc)
    )


def is_disk_full(exc: BaseException) -> bool:
    """SQLite's "database or disk is full" (SQLITE_FULL), or an OSError of a full disk or quota."""
    if isinstance(exc, sqlite3.Error):
        return getattr(
            exc, "sqlite_errorcode", None
        ) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def use_wal(con: sqlite3.Connection, timeout_s: float = BUSY_TIMEOUT_S) -> None:
    """Put the file in WAL mode (it stays so). When two programs switch a new file at the same
    moment SQLite refuses one at once with "database is locked", without waiting on
    `busy_timeout`: two processes opening a new library together failed so in 28 of 40 tries.
    So a file already in WAL is left alone, and a refused switch is retried until the timeout."""
    deadline = time.monotonic() + timeout_s
    while True:
        if str(con.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
            return
        try:
            con.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(WAL_RETRY_S)


class SqliteFile:
    """`path` and `_error(exc)` (the sentence-bearing error of the kind of file) come from the
    subclass."""

    path: Path

    def _error(self, exc: sqlite3.Error) -> Exception:
        raise NotImplementedError

    def connect(self) -> sqlite3.Connection:
        return connect(self.path)

    @contextmanager
    def transaction(self):
        """One change: all of it or none of it. Rows read inside it are named (sqlite3.Row)."""
        try:
            con = self.connect()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        con.row_factory = sqlite3.Row
        try:
            con.execute("BEGIN IMMEDIATE")
            yield con
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise self._error(exc) from None
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def rows(self, sql: str, params=()) -> list[tuple]:
        """Plain tuples: for PRAGMAs and single values. A table's rows are read with named_rows."""
        return self._fetch(sql, params, None)

    def named_rows(self, sql: str, params=()) -> list[sqlite3.Row]:
        """Rows whose fields are read by column name (`row["id"]`), never by position."""
        return self._fetch(sql, params, sqlite3.Row)

    def _fetch(self, sql: str, params, factory) -> list:
        try:
            with closing(self.connect()) as con:
                con.row_factory = factory
                return con.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None


def migrate(con: sqlite3.Connection, migrations: dict[int, list[str]], newer) -> int:
    """Bring the file up to the newest of `migrations` (version -> statements) in one
    transaction; returns the version it had. A file from a newer program raises `newer(version)`."""
    latest = max(migrations)
    con.execute("BEGIN IMMEDIATE")
    try:
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version > latest:
            raise newer(version)
        for target in range(version + 1, latest + 1):
            for statement in migrations[target]:
                con.execute(statement)
            con.execute(f"PRAGMA user_version = {int(target)}")
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise
    return version
