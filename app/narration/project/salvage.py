"""A damaged project file: every row that can still be read is copied into a new project
beside it (`book.recovered.ctsproj`), which is then opened; the notices say what was lost.
The damaged file is only read, so nothing more of it is lost by trying."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from app.atomic import TEMP_SUFFIX
from app.i18n import _
from app.narration.project import opening, schema
from app.narration.project.creating import _link, free_name
from app.narration.project.errors import ProjectError
from app.narration.project.records import CHAPTER_COLUMNS, chapter_from_row
from app.narration.project.tables import scan

MAX_ROWS = opening.MAX_ROWS
SENTENCE_ALL = (
    "id, chapter_id, idx, text, speaker, start, end, seed, speed, status, locked, error, "
    "take_id, generation"
)
TAKE_META = "id, sentence_id, seed, samples, created, worker"


def salvage(path: Path) -> tuple[Path, list[str], set[int]]:
    target = free_name(path, "recovered")
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{target.name}.", suffix=TEMP_SUFFIX)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with (
            closing(sqlite3.connect(str(path), timeout=5, isolation_level=None)) as src,
            closing(sqlite3.connect(str(tmp), isolation_level=None)) as dst,
        ):
            # A file shorter than its header says is refused as a whole unless the schema is
            # "writable"; we only read it, and this makes SQLite read the pages that are there.
            src.execute("PRAGMA writable_schema = ON")
            schema.initialize(dst)
            lost = _copy(src, dst)
            dst.execute("PRAGMA journal_mode=WAL")
        _link(tmp, target)
    except sqlite3.Error as exc:
        raise ProjectError(
            _("The project {file} is damaged and could not be recovered ({reason}).").format(
                file=path, reason=exc
            )
        ) from None
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            leftover.unlink(missing_ok=True)
    opened, notices, bad_takes = opening.open_file(target)
    head = _(
        "The project {file} is damaged: what could be read was copied to {copy}, which is open now; "
        "the damaged file was left as it was."
    ).format(file=path, copy=target)
    return opened, [head, *lost, *notices], bad_takes


def _try_rows(con, sql: str) -> list[tuple]:
    try:
        return con.execute(sql).fetchall()
    except sqlite3.DatabaseError:
        return []


def _copy(src: sqlite3.Connection, dst: sqlite3.Connection) -> list[str]:
    notices: list[str] = []
    dst.execute("BEGIN IMMEDIATE")
    dst.executemany(
        "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
        _try_rows(src, "SELECT key, value FROM meta LIMIT 100"),
    )
    dst.executemany(
        "INSERT OR IGNORE INTO voices (name, seed, speaker) VALUES (?, ?, ?)",
        _try_rows(src, "SELECT name, seed, speaker FROM voices LIMIT 1000"),
    )
    dst.executemany(
        "INSERT OR IGNORE INTO lexicon (word, replacement) VALUES (?, ?)",
        _try_rows(src, "SELECT word, replacement FROM lexicon LIMIT 20000"),
    )
    chapters, chapters_lost = scan(src, "chapters", CHAPTER_COLUMNS, MAX_ROWS)
    dst.executemany(f"INSERT INTO chapters ({CHAPTER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", chapters)
    sentences, sentences_lost = scan(src, "sentences", SENTENCE_ALL, MAX_ROWS)
    takes, takes_lost = scan(src, "takes", TAKE_META, MAX_ROWS)
    kept_takes = set()
    for take in takes:
        try:
            blob = src.execute("SELECT audio FROM takes WHERE id = ?", (take[0],)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if blob is not None:
            dst.execute(
                f"INSERT INTO takes ({TAKE_META}, audio) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*take, blob[0]),
            )
            kept_takes.add(take[0])
    titles = {
        c.id: (n + 1, c.title)
        for n, c in enumerate(
            sorted(filter(None, map(chapter_from_row, chapters)), key=lambda c: (c.index, c.id))
        )
    }
    present: dict[int, set[int]] = {}
    for scanned in sentences:
        row = list(scanned)
        if row[12] is not None and row[12] not in kept_takes:
            notices.append(
                _(
                    "{where}: its audio could not be read; the sentence will be rendered again."
                ).format(where=opening.where(titles, row[1], row[2]))
            )
            row[12], row[9] = None, "pending"
        dst.execute(f"INSERT INTO sentences ({SENTENCE_ALL}) VALUES ({', '.join('?' * 14)})", row)
        if type(row[2]) is int:
            present.setdefault(row[1], set()).add(row[2])
    dst.execute("COMMIT")
    for chapter_id, (number, title) in titles.items():
        have = present.get(chapter_id, set())
        missing = [i for i in range(max(have, default=-1)) if i not in have]
        if missing:
            notices.append(
                _(
                    "Chapter {chapter} ('{title}'): {count} sentences could not be read (numbers "
                    "{first} to {last})."
                ).format(
                    chapter=number,
                    title=title[:60],
                    count=len(missing),
                    first=missing[0] + 1,
                    last=missing[-1] + 1,
                )
            )
    if chapters_lost or sentences_lost:
        notices.append(
            _(
                "Some chapters or sentences at the end of the project could not be read; compare the "
                "project with its book."
            )
        )
    if takes_lost:
        notices.append(_("Some takes could not be read; their sentences will be rendered again."))
    return notices
