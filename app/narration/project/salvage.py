"""A damaged project file: every row that can still be read is copied into a new project
beside it (`book.recovered.ctsproj`), which opening.py then opens; the notices say what was
lost. The damaged file is only read, so nothing more of it is lost by trying."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from app.atomic import TEMP_SUFFIX
from app.core import insert, select
from app.i18n import _
from app.narration.project import schema
from app.narration.project.creating import free_name, link_into_place
from app.narration.project.errors import ProjectError
from app.narration.project.places import where
from app.narration.project.records import SentenceStatus, chapter_from_row
from app.narration.project.schema import (
    CHAPTER_COLUMNS,
    LEXICON_COLUMNS,
    META_COLUMNS,
    SENTENCE_COLUMNS,
    TAKE_CHECK_COLUMNS,
    TAKE_COLUMNS,
    VOICE_COLUMNS,
)
from app.narration.project.tables import MAX_ROWS, scan


def salvage(path: Path) -> tuple[Path, list[str]]:
    """(the recovered copy, sentences about what could not be copied)."""
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
            src.row_factory = sqlite3.Row
            schema.initialize(dst)
            lost = _copy(src, dst)
            dst.execute("PRAGMA journal_mode=WAL")
        link_into_place(tmp, target)
    except sqlite3.Error as exc:
        raise ProjectError(
            _("The project {file} is damaged and could not be recovered ({reason}).").format(
                file=path, reason=exc
            )
        ) from None
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            leftover.unlink(missing_ok=True)
    return target, lost


def _try_rows(con, sql: str) -> list[sqlite3.Row]:
    try:
        return con.execute(sql).fetchall()
    except sqlite3.DatabaseError:
        return []


def _copy(src: sqlite3.Connection, dst: sqlite3.Connection) -> list[str]:
    notices: list[str] = []
    dst.execute("BEGIN IMMEDIATE")
    for table, columns, limit in (
        ("meta", META_COLUMNS, 100),
        ("voices", VOICE_COLUMNS, 1000),
        ("lexicon", LEXICON_COLUMNS, 20000),
    ):
        dst.executemany(
            insert(table, columns, "INSERT OR IGNORE"),
            [
                dict(row)
                for row in _try_rows(src, f"SELECT {select(columns)} FROM {table} LIMIT {limit}")
            ],
        )
    chapters, chapters_lost = scan(src, "chapters", CHAPTER_COLUMNS, MAX_ROWS)
    dst.executemany(insert("chapters", CHAPTER_COLUMNS), [dict(row) for row in chapters])
    sentences, sentences_lost = scan(src, "sentences", SENTENCE_COLUMNS, MAX_ROWS)
    takes, takes_lost = scan(src, "takes", TAKE_COLUMNS, MAX_ROWS)
    kept_takes = set()
    for take in takes:
        try:
            blob = src.execute("SELECT audio FROM takes WHERE id = ?", (take["id"],)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if blob is not None:
            dst.execute(
                insert("takes", (*TAKE_COLUMNS, "audio")), {**dict(take), "audio": blob["audio"]}
            )
            kept_takes.add(take["id"])
    # What the checker found goes with the takes kept; a row that cannot be read is left out.
    for check in _try_rows(
        src, f"SELECT {select(TAKE_CHECK_COLUMNS)} FROM take_checks LIMIT {MAX_ROWS}"
    ):
        if check["take_id"] in kept_takes:
            dst.execute(insert("take_checks", TAKE_CHECK_COLUMNS, "INSERT OR IGNORE"), dict(check))
    titles = {
        c.id: (n + 1, c.title)
        for n, c in enumerate(
            sorted(filter(None, map(chapter_from_row, chapters)), key=lambda c: (c.index, c.id))
        )
    }
    present: dict[int, set[int]] = {}
    for scanned in sentences:
        row = dict(scanned)
        if row["take_id"] is not None and row["take_id"] not in kept_takes:
            notices.append(
                _(
                    "{where}: its audio could not be read; the sentence will be rendered again."
                ).format(where=where(titles, row["chapter_id"], row["idx"]))
            )
            row["take_id"], row["status"] = None, SentenceStatus.PENDING.value
        dst.execute(insert("sentences", SENTENCE_COLUMNS), row)
        if type(row["idx"]) is int:
            present.setdefault(row["chapter_id"], set()).add(row["idx"])
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
