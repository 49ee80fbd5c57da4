"""Reading a table row by row where the file may be damaged: what can be read is kept, and the
reader skips forward past pages that cannot be read instead of giving up on the whole table."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from app.core import select

MAX_ROWS = 500_000  # of one table, read when a project is opened or recovered
MAX_SKIPS = 64  # doubling steps: 64 of them pass any 64-bit id


def scan(
    con: sqlite3.Connection, table: str, columns: Sequence[str], limit: int
) -> tuple[list[sqlite3.Row], bool]:
    """(rows in id order, named, whether some could not be read). `columns` include `id`."""
    rows: list[sqlite3.Row] = []
    last, step, skips, lost = -1, 1, 0, False
    con.row_factory = sqlite3.Row
    while len(rows) < limit:
        try:
            cursor = con.execute(
                f"SELECT {select(columns)} FROM {table} WHERE id > ? ORDER BY id LIMIT ?",
                (last, limit - len(rows)),
            )
            for row in cursor:
                rows.append(row)
                if type(row["id"]) is int:
                    last = row["id"]
                step = 1
            return rows, lost
        except sqlite3.DatabaseError:
            lost = True
            skips += 1
            if skips > MAX_SKIPS or last >= 2**62:
                return rows, lost
            last, step = last + step, step * 2
    return rows, lost
