"""Making a new project file from a SourceDocument: built whole beside its target under a
temporary name, then linked into place, which fails rather than replace a file that exists."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

from app.atomic import TEMP_SUFFIX
from app.core import SEED_MAX
from app.i18n import _
from app.library import MAX_SPEAKER
from app.narration.project import schema
from app.narration.project.errors import ProjectError
from app.narration.project.records import MAX_SENTENCE, MAX_TIME, MAX_TITLE, sentence_seed
from app.narration.source import SourceDocument

MAX_CHAPTERS = 20_000
MAX_SENTENCES = 500_000
SUFFIX = ".ctsproj"


def exists_error(path: Path) -> ProjectError:
    return ProjectError(
        _(
            "{file} already exists; choose another name for the new project, or open that one."
        ).format(file=path)
    )


def _check(document: SourceDocument, seed: int, speaker: str | None) -> None:
    if type(seed) is not int or not 0 <= seed <= SEED_MAX:
        raise ProjectError(
            _("The project's seed must be a whole number from 0 to {high}.").format(high=SEED_MAX)
        )
    if speaker is not None and (not isinstance(speaker, str) or len(speaker) > MAX_SPEAKER):
        raise ProjectError(
            _("The project's speaker is not a speaker string; choose the voice again.")
        )
    count = sum(len(chapter.sentences) for chapter in document.chapters)
    if count == 0:
        raise ProjectError(_("The document has no sentences to narrate."))
    if len(document.chapters) > MAX_CHAPTERS or count > MAX_SENTENCES:
        raise ProjectError(
            _(
                "The document is too long for one project ({chapters} chapters, {sentences} "
                "sentences); split it into several."
            ).format(chapters=len(document.chapters), sentences=count)
        )
    for chapter in document.chapters:
        for sentence in chapter.sentences:
            if not sentence.text.strip() or len(sentence.text) > MAX_SENTENCE:
                raise ProjectError(
                    _(
                        "A sentence of the chapter '{title}' is empty or longer than {limit} "
                        "characters; the input was not split into sentences."
                    ).format(title=chapter.title[:80], limit=MAX_SENTENCE)
                )
            for t in (sentence.start, sentence.end):
                if t is not None and not 0 <= t <= MAX_TIME:
                    raise ProjectError(
                        _("A cue time in the chapter '{title}' is out of range.").format(
                            title=chapter.title[:80]
                        )
                    )


def _fill(
    con: sqlite3.Connection, document: SourceDocument, seed: int, speaker: str | None
) -> None:
    con.execute("BEGIN IMMEDIATE")
    meta = {
        "title": document.title[:MAX_TITLE],
        "author": document.author[:MAX_TITLE],
        "kind": document.kind[:32],
        "seed": str(seed),
        "speaker": speaker or "",
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
    for c_index, chapter in enumerate(document.chapters):
        cid = con.execute(
            "INSERT INTO chapters (idx, title) VALUES (?, ?)", (c_index, chapter.title[:MAX_TITLE])
        ).lastrowid
        con.executemany(
            "INSERT INTO sentences (chapter_id, idx, text, speaker, start, end, seed) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    cid,
                    s_index,
                    s.text,
                    (s.speaker or "")[:200] or None,
                    s.start,
                    s.end,
                    sentence_seed(seed, c_index, s_index),
                )
                for s_index, s in enumerate(chapter.sentences)
            ],
        )
    con.execute("COMMIT")


def create_file(path: Path, document: SourceDocument, seed: int, speaker: str | None) -> None:
    _check(document, seed, speaker)
    if path.exists():
        raise exists_error(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX
        )
        os.close(fd)
    except OSError as exc:
        raise ProjectError(
            _(
                "The project {file} cannot be created ({reason}); choose a folder you can write to."
            ).format(file=path, reason=exc.strerror or exc)
        ) from None
    tmp = Path(tmp_name)
    try:
        with closing(sqlite3.connect(str(tmp), isolation_level=None)) as con:
            schema.initialize(con)
            _fill(con, document, seed, speaker)
            con.execute("PRAGMA journal_mode=WAL")
        link_into_place(tmp, path)
    except sqlite3.Error as exc:
        raise ProjectError(
            _(
                "The project {file} cannot be created ({reason}); check that the disk is not full."
            ).format(file=path, reason=exc)
        ) from None
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
            leftover.unlink(missing_ok=True)


def link_into_place(tmp: Path, path: Path) -> None:
    """Put the finished file in place without ever replacing one that appeared meanwhile."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise exists_error(path) from None
    except OSError:
        # A file system without hard links (FAT on a memory stick): claim the name, then move in.
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            raise exists_error(path) from None
        os.close(fd)
        os.replace(tmp, path)


def free_name(path: Path, tag: str) -> Path:
    """`name.<tag>.ctsproj`, or with a number, that does not exist yet."""
    stem = path.name[: -len(SUFFIX)] if path.name.endswith(SUFFIX) else path.name
    for n in range(1, 10_000):
        candidate = path.with_name(f"{stem}.{tag}{'' if n == 1 else f'-{n}'}{SUFFIX}")
        if not candidate.exists():
            return candidate
    raise exists_error(path)
