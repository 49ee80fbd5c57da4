"""A new library opened by two programs at the same moment: SQLite refused one of them the
switch to WAL at once ("database is locked", whatever busy_timeout says), so the switch is
retried, and a file already in WAL is left alone."""

import sqlite3
import subprocess
import sys
import textwrap
import time
from contextlib import closing

import pytest

from app.core.sqlite_file import connect, use_wal


class _Connection:
    """A connection whose switch to WAL is refused `refusals` times, as SQLite refuses it when
    two programs switch at once (without calling the busy handler)."""

    def __init__(self, refusals, mode="delete"):
        self.refusals, self.mode, self.switches = refusals, mode, 0

    def execute(self, sql):
        if sql == "PRAGMA journal_mode":
            return _Rows([(self.mode,)])
        assert sql == "PRAGMA journal_mode=WAL"
        self.switches += 1
        if self.refusals:
            self.refusals -= 1
            raise sqlite3.OperationalError("database is locked")
        self.mode = "wal"
        return _Rows([("wal",)])


class _Rows(list):
    def fetchone(self):
        return self[0]


def test_a_refused_switch_is_tried_again_until_it_takes():
    con = _Connection(refusals=3)
    use_wal(con)
    assert con.mode == "wal" and con.switches == 4


def test_a_switch_refused_past_the_timeout_ends_in_the_error():
    con = _Connection(refusals=10**6)
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        use_wal(con, timeout_s=0.2)
    assert 0.2 <= time.monotonic() - started < 2.0


def test_other_errors_are_not_retried():
    class Broken(_Connection):
        def execute(self, sql):
            if sql == "PRAGMA journal_mode=WAL":
                raise sqlite3.OperationalError("disk I/O error")
            return super().execute(sql)

    with pytest.raises(sqlite3.OperationalError, match="I/O"):
        use_wal(Broken(refusals=0), timeout_s=5.0)


def test_a_file_already_in_wal_is_not_switched_again(tmp_path):
    con = _Connection(refusals=10**6, mode="wal")
    use_wal(con)
    assert con.switches == 0
    with closing(connect(tmp_path / "f.sqlite3")) as real:
        use_wal(real)
        assert real.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_two_programs_opening_a_new_library_at_once_both_open_it(tmp_path):
    script = textwrap.dedent("""
        import sys, time
        from app.library import Library
        start = float(sys.argv[2])
        while time.time() < start:
            pass
        Library(sys.argv[1])
    """)
    for attempt in range(4):  # without the retry, 28 of 40 such pairs had one fail
        folder = tmp_path / f"library{attempt}"
        start = time.time() + 2.0
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", script, str(folder), str(start)], stderr=subprocess.PIPE
            )
            for _ in range(2)
        ]
        errors = [p.communicate(timeout=120)[1].decode() for p in procs]
        assert [p.returncode for p in procs] == [0, 0], errors
