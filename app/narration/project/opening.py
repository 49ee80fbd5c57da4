"""Opening a project file: refuse what is not ours, bring an older one up to date, and survey
it. A file SQLite finds damaged is copied, as far as it can be read, into a new project beside
it (salvage.py) and that copy is opened; the damaged file itself is never changed."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from app.core import connect, is_busy, select, use_wal
from app.i18n import _
from app.narration.project import audio as takes_audio
from app.narration.project import schema
from app.narration.project.checks import take_check_from_row
from app.narration.project.errors import ProjectError
from app.narration.project.places import where
from app.narration.project.records import bad_sentence_field, chapter_from_row, take_from_row
from app.narration.project.salvage import salvage
from app.narration.project.schema import (
    CHAPTER_COLUMNS,
    SENTENCE_COLUMNS,
    TAKE_CHECK_COLUMNS,
    TAKE_COLUMNS,
)
from app.narration.project.tables import MAX_ROWS

SQLITE_HEADER = b"SQLite format 3\x00"


def not_a_project(path: Path) -> ProjectError:
    return ProjectError(
        _(
            "{file} is not a ChatTTS Studio narration project (.ctsproj); open a project "
            "file, or make a new project from a book or script."
        ).format(file=path)
    )


def open_file(path: Path) -> tuple[Path, list[str], set[int]]:
    """(the file opened, notices, ids of takes that cannot be played)."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        raise ProjectError(
            _("The project {file} does not exist; check the name.").format(file=path)
        ) from None
    except OSError as exc:
        raise ProjectError(
            _("The project {file} cannot be read ({reason}).").format(
                file=path, reason=exc.strerror or exc
            )
        ) from None
    if (
        len(head) < 100
        or head[:16] != SQLITE_HEADER
        or int.from_bytes(head[68:72], "big") != schema.APPLICATION_ID
    ):
        raise not_a_project(path)
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        raise ProjectError(
            _(
                "The project {file} is read-only; copy it to a folder you can write to and "
                "open the copy."
            ).format(file=path)
        )
    try:
        with closing(connect(path)) as con:
            schema.migrate(con, path)
            use_wal(con)
            healthy = con.execute("PRAGMA quick_check").fetchall() == [("ok",)]
            if healthy:
                notices, bad_takes = survey(con)
                return path, notices, bad_takes
    except sqlite3.OperationalError as exc:
        if is_busy(exc):
            raise ProjectError(
                _(
                    "The project {file} is busy in another program; close it there and try again."
                ).format(file=path)
            ) from None
    except sqlite3.DatabaseError:
        pass
    copy, lost = salvage(path)
    opened, notices, bad_takes = open_file(copy)
    damaged = _(
        "The project {file} is damaged: what could be read was copied to {copy}, which is open now; "
        "the damaged file was left as it was."
    ).format(file=path, copy=copy)
    return opened, [damaged, *lost, *notices], bad_takes


def survey(con: sqlite3.Connection) -> tuple[list[str], set[int]]:
    """Check every row and each take's header (a few bytes each); say what is not usable."""
    notices: list[str] = []
    con.row_factory = sqlite3.Row
    chapters: dict[int, tuple[int, str]] = {}  # id: (number from 1, title)
    for row in con.execute(
        f"SELECT {select(CHAPTER_COLUMNS)} FROM chapters ORDER BY idx, id LIMIT {MAX_ROWS}"
    ):
        chapter = chapter_from_row(row)
        if chapter is None:
            notices.append(
                _(
                    "A chapter could not be read (its record is not valid); it and its sentences "
                    "were left out."
                )
            )
        else:
            chapters[chapter.id] = (len(chapters) + 1, chapter.title)
    chosen: dict[int, str] = {}
    for row in con.execute(
        f"SELECT {select(SENTENCE_COLUMNS)} FROM sentences ORDER BY chapter_id, idx "
        f"LIMIT {MAX_ROWS}"
    ):
        place = where(chapters, row["chapter_id"], row["idx"])
        field = bad_sentence_field(row)
        if field is not None:
            notices.append(
                _("{where}: its field '{field}' is not valid; the sentence was left out.").format(
                    where=place, field=field
                )
            )
        elif row["chapter_id"] not in chapters:
            notices.append(_("A sentence belongs to no chapter of the project; it was left out."))
        elif row["take_id"] is not None:
            chosen[row["take_id"]] = place
    bad_takes: set[int] = set()
    for row in con.execute(
        f"SELECT {select(TAKE_COLUMNS)} FROM takes ORDER BY id LIMIT {MAX_ROWS}"
    ):
        take = take_from_row(row, takes_audio.SAMPLE_RATE)
        take_id = row["id"]
        if take is None or not _blob_header_ok(
            con, take.id, round(take.duration * takes_audio.SAMPLE_RATE)
        ):
            if type(take_id) is int:
                bad_takes.add(take_id)
                if take_id in chosen:
                    notices.append(
                        _(
                            "{where}: its audio is damaged; the sentence will be rendered again."
                        ).format(where=chosen[take_id])
                    )
    bad_checks = sum(
        1
        for row in con.execute(
            f"SELECT {select(TAKE_CHECK_COLUMNS)} FROM take_checks LIMIT {MAX_ROWS}"
        )
        if take_check_from_row(row) is None
    )
    if bad_checks:
        notices.append(
            _(
                "What the take checker found in {count} takes could not be read; those takes "
                "show as not checked."
            ).format(count=bad_checks)
        )
    return notices, bad_takes


def _blob_header_ok(con: sqlite3.Connection, take_id: int, samples: int) -> bool:
    try:
        with con.blobopen("takes", "audio", take_id, readonly=True) as blob:
            if len(blob) > takes_audio.MAX_TAKE_BYTES:
                return False
            return takes_audio.header_ok(blob.read(takes_audio.HEADER_BYTES), samples)
    except sqlite3.Error:  # not a blob (text, NULL) or a page that cannot be read
        return False
