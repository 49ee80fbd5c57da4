"""Reading a table row by row where the file may be damaged: what can be read is kept, and the
reader skips forward past pages that cannot be read instead of giving up on the whole table."""

from __future__ import annotations

import sqlite3

MAX_SKIPS = 64  # doubling steps: 64 of them pass any 64-bit id


def scan(con: sqlite3.Connection, table: str, columns: str, limit: int) -> tuple[list[tuple], bool]:
    """(rows in id order, whether some could not be read). The first column must be `id`."""
    rows: list[tuple] = []
    last, step, skips, lost = -1, 1, 0, False
    while len(rows) < limit:
        try:
            cursor = con.execute(
                f"SELECT {columns} FROM {table} WHERE id > ? ORDER BY id LIMIT ?",
                (last, limit - len(rows)),
            )
            for row in cursor:
                rows.append(row)
                if type(row[0]) is int:
                    last = row[0]
                step = 1
            return rows, lost
        except sqlite3.DatabaseError:
            lost = True
            skips += 1
            if skips > MAX_SKIPS or last >= 2**62:
                return rows, lost
            last, step = last + step, step * 2
    return rows, lost
