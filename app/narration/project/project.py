"""A narration project: one `.ctsproj` SQLite file with the book's chapters and sentences, each
sentence's takes (FLAC blobs), the project's voices, lexicon and export settings.

    project = Project.create("book.ctsproj", document)      # never replaces a file
    project = Project.open("book.ctsproj")                  # project.notices: what was not intact

Every change is one transaction: a program killed at any moment loses at most the sentence
being made. Rows read back are checked (records.py); a bad one is skipped and named in
`notices`, the rest is used.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
from pydantic import ValidationError

from app.core import DEFAULT_SEED, SEED_MAX, select
from app.i18n import _
from app.narration.project import audio as takes_audio
from app.narration.project import opening
from app.narration.project.checks import TakeCheck, take_check_from_row
from app.narration.project.creating import create_file
from app.narration.project.edits import CastVoice, Edits
from app.narration.project.errors import ProjectError
from app.narration.project.records import (
    Chapter,
    Sentence,
    SentenceStatus,
    Take,
    chapter_from_row,
    sentence_from_row,
    take_from_row,
)
from app.narration.project.schema import (
    CHAPTER_COLUMNS,
    SENTENCE_COLUMNS,
    TAKE_CHECK_COLUMNS,
    TAKE_COLUMNS,
)
from app.narration.project.settings import ExportSettings, read_settings
from app.narration.project.store import Store
from app.narration.rendered import RenderedChapter, RenderedSentence
from app.narration.source import SourceDocument

SAMPLE_RATE = takes_audio.SAMPLE_RATE
# How many tries a sentence whose take the checker flags gets, unless the project says.
DEFAULT_TAKE_TRIES = 3
TAKE_TRIES_RANGE = (1, 10)


class Project:
    def __init__(self, path: Path, notices: list[str], bad_takes: set[int]):
        """Use Project.create or Project.open."""
        self.store = Store(path)
        self.notices: list[str] = notices
        self._bad_takes = bad_takes
        meta = {
            r["key"]: r["value"]
            for r in self.store.named_rows("SELECT key, value FROM meta LIMIT 100")
            if isinstance(r["value"], str) and len(r["value"]) <= 70_000
        }
        self.title: str = meta.get("title", "")[:1000]
        self.author: str = meta.get("author", "")[:1000]  # a project from before it: ""
        self.kind: str = meta.get("kind", "text")[:32]
        seed = meta.get("seed", "")
        self.seed: int = int(seed) if seed.isdigit() and int(seed) <= SEED_MAX else DEFAULT_SEED
        self.speaker: str | None = meta.get("speaker") or None
        self.notices.extend(read_settings(meta.get("settings"))[1])
        tries = meta.get("take_tries")
        if tries is not None and _tries(tries) is None:
            self.notices.append(
                _(
                    "The project's number of tries per sentence is not valid; {count} is used."
                ).format(count=DEFAULT_TAKE_TRIES)
            )
        self._edits = Edits(self.store, self.seed, self._bad_takes)

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def create(
        cls, path, document: SourceDocument, *, seed: int = DEFAULT_SEED, speaker: str | None = None
    ) -> Project:
        """A new project file at `path` (which must not exist) holding `document`'s sentences,
        all pending, each with its own seed derived from `seed` and its place."""
        target = Path(os.fspath(path))
        create_file(target, document, seed, speaker)
        return cls(target, [], set())

    @classmethod
    def open(cls, path) -> Project:
        opened, notices, bad_takes = opening.open_file(Path(os.fspath(path)))
        return cls(opened, notices, bad_takes)

    @property
    def path(self) -> Path:
        return self.store.path

    def close(self) -> None:
        """Nothing stays open between operations; kept for `with` and for clients' symmetry."""

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------
    def chapters(self) -> list[Chapter]:
        rows = self.store.named_rows(
            f"SELECT {select(CHAPTER_COLUMNS)} FROM chapters ORDER BY idx, id LIMIT 20000"
        )
        return [c for c in map(chapter_from_row, rows) if c is not None]

    def chapter(self, chapter_id: int) -> Chapter:
        for chapter in self.chapters():
            if chapter.id == chapter_id:
                return chapter
        raise ProjectError(
            _("That chapter is no longer in the project {file}.").format(file=self.path)
        )

    def _durations(self, rows) -> dict[int, float]:
        """Take id -> seconds, from named rows of `id` and `samples`."""
        return {
            tid: samples / SAMPLE_RATE
            for tid, samples in ((r["id"], r["samples"]) for r in rows)
            if type(tid) is int
            and type(samples) is int
            and 0 <= samples <= 600 * SAMPLE_RATE
            and tid not in self._bad_takes
        }

    def sentences(self, chapter_id: int | None = None) -> list[Sentence]:
        where, params = (
            ("WHERE chapter_id = ?", (chapter_id,)) if chapter_id is not None else ("", ())
        )
        rows = self.store.named_rows(
            f"SELECT {select(SENTENCE_COLUMNS)} FROM sentences {where} "
            "ORDER BY chapter_id, idx, id LIMIT 500000",
            params,
        )
        durations = self._durations(
            self.store.named_rows(
                f"SELECT t.id AS id, t.samples AS samples FROM takes t JOIN sentences s ON s.take_id = t.id {where.replace('chapter_id', 's.chapter_id')}",
                params,
            )
        )
        checks = self._chosen_checks(where.replace("chapter_id", "s.chapter_id"), params)
        found = [
            s for s in (sentence_from_row(r, durations, checks) for r in rows) if s is not None
        ]
        if chapter_id is None:
            order = {c.id: c.index for c in self.chapters()}
            found = [s for s in found if s.chapter_id in order]
            found.sort(key=lambda s: (order[s.chapter_id], s.chapter_id, s.index, s.id))
        return found

    def sentence(self, sentence_id: int) -> Sentence:
        rows = self.store.named_rows(
            f"SELECT {select(SENTENCE_COLUMNS)} FROM sentences WHERE id = ?", (sentence_id,)
        )
        durations = self._durations(
            self.store.named_rows(
                "SELECT t.id AS id, t.samples AS samples FROM takes t JOIN sentences s ON s.take_id = t.id WHERE s.id = ?",
                (sentence_id,),
            )
        )
        checks = self._chosen_checks("WHERE s.id = ?", (sentence_id,))
        found = sentence_from_row(rows[0], durations, checks) if rows else None
        if found is None:
            raise ProjectError(
                _("That sentence is no longer in the project {file}.").format(file=self.path)
            )
        return found

    def _chosen_checks(self, where: str, params) -> dict[int, TakeCheck]:
        """Take id -> its check, for the chosen takes of the sentences `where` selects."""
        columns = ", ".join(f"c.{c} AS {c}" for c in TAKE_CHECK_COLUMNS)
        rows = self.store.named_rows(
            f"SELECT {columns} FROM take_checks c JOIN sentences s ON s.take_id = c.take_id "
            f"{where} LIMIT 500000",
            params,
        )
        return {c.take_id: c for c in map(take_check_from_row, rows) if c is not None}

    def take_checks(self, sentence_id: int) -> list[TakeCheck]:
        """Every checked try of the sentence, oldest first (a damaged record is left out)."""
        rows = self.store.named_rows(
            f"SELECT {select(TAKE_CHECK_COLUMNS)} FROM take_checks WHERE sentence_id = ? "
            "ORDER BY take_id LIMIT 10000",
            (sentence_id,),
        )
        return [
            c
            for c in map(take_check_from_row, rows)
            if c is not None and c.sentence_id == sentence_id and c.take_id not in self._bad_takes
        ]

    def take_tries(self) -> int:
        """How many tries a sentence whose take is flagged gets (the first one included)."""
        rows = self.store.named_rows("SELECT value FROM meta WHERE key = 'take_tries'")
        found = _tries(rows[0]["value"]) if rows else None
        return DEFAULT_TAKE_TRIES if found is None else found

    def set_take_tries(self, tries: int) -> None:
        low, high = TAKE_TRIES_RANGE
        if type(tries) is not int or not low <= tries <= high:
            raise ProjectError(
                _("The number of tries must be a whole number from {low} to {high}.").format(
                    low=low, high=high
                )
            )
        with self.store.transaction() as con:
            con.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('take_tries', ?)", (str(tries),)
            )

    def pending(
        self, chapter_id: int | None = None, include_failed: bool = False
    ) -> list[Sentence]:
        wanted = {SentenceStatus.PENDING} | ({SentenceStatus.FAILED} if include_failed else set())
        return [s for s in self.sentences(chapter_id) if s.status in wanted]

    def takes(self, sentence_id: int) -> list[Take]:
        rows = self.store.named_rows(
            f"SELECT {select(TAKE_COLUMNS)} FROM takes WHERE sentence_id = ? ORDER BY id LIMIT 10000",
            (sentence_id,),
        )
        return [
            t
            for t in (take_from_row(r, SAMPLE_RATE) for r in rows)
            if t is not None and t.id not in self._bad_takes
        ]

    def take_audio(self, take_id: int) -> np.ndarray:
        """The take's samples: float32, mono, 24 kHz."""
        rows = self.store.named_rows(
            "SELECT samples, length(audio) AS size FROM takes WHERE id = ?", (take_id,)
        )
        if not rows:
            raise ProjectError(
                _("That take is no longer in the project {file}.").format(file=self.path)
            )
        samples, size = rows[0]["samples"], rows[0]["size"]
        try:
            if (
                take_id in self._bad_takes
                or not isinstance(size, int)
                or size > takes_audio.MAX_TAKE_BYTES
            ):
                raise takes_audio.TakeAudioError("unusable")
            blob = self.store.named_rows("SELECT audio FROM takes WHERE id = ?", (take_id,))[0]
            return takes_audio.decode(blob["audio"], samples if type(samples) is int else -1)
        except takes_audio.TakeAudioError:
            self._bad_takes.add(take_id)
            raise ProjectError(
                _(
                    "A take in the project {file} is damaged and cannot be played; regenerate "
                    "its sentence."
                ).format(file=self.path)
            ) from None

    def rendered_chapters(self, chapter_ids: list[int] | None = None) -> list[RenderedChapter]:
        """Each chapter's chosen takes in reading order, for export. A chapter with sentences not
        yet rendered is refused with a sentence saying how many."""
        out = []
        for chapter in self.chapters():
            if chapter_ids is not None and chapter.id not in chapter_ids:
                continue
            sentences = self.sentences(chapter.id)
            missing = [s for s in sentences if s.take_id is None]
            if missing:
                raise ProjectError(
                    _(
                        "{count} sentences of the chapter '{title}' have no audio yet; render "
                        "the project first."
                    ).format(count=len(missing), title=chapter.title)
                )
            out.append(
                RenderedChapter(
                    chapter.title,
                    tuple(
                        RenderedSentence(
                            s.text,
                            self.take_audio(s.take_id),
                            s.start,
                            s.end,
                            tuple(s.check.reasons()) if s.check is not None else (),
                        )
                        for s in sentences
                        if s.take_id is not None  # all of them: `missing` is empty
                    ),
                    SAMPLE_RATE,
                )
            )
        return out

    # -- voices, lexicon, settings -------------------------------------------------------------
    def settings(self) -> ExportSettings:
        """The export settings; a stored field that is not valid reads as its default (the
        notices at opening said which)."""
        rows = self.store.named_rows("SELECT value FROM meta WHERE key = 'settings'")
        return read_settings(rows[0]["value"] if rows else None)[0]

    def save_settings(self, settings: ExportSettings | None = None, **changes) -> ExportSettings:
        """Store the settings (or the current ones with `changes`); ProjectError if a value is
        out of its range."""
        base = settings if settings is not None else self.settings()
        try:
            new = ExportSettings.model_validate({**base.model_dump(), **changes})
        except ValidationError as exc:
            field = ".".join(str(p) for p in exc.errors()[0].get("loc", ())) or "one_file"
            raise ProjectError(
                _("The export setting '{field}' is not valid; choose a value in its range.").format(
                    field=field
                )
            ) from None
        with self.store.transaction() as con:
            con.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('settings', ?)",
                (json.dumps(new.model_dump(mode="json")),),
            )
        return new

    # -- changes (edits.py) ----------------------------------------------------------------------
    def add_take(
        self,
        sentence_id: int,
        audio: np.ndarray,
        seed: int,
        worker: str | None = None,
        choose: bool = True,
        chapter_reference: tuple | None = None,
        check: dict | None = None,
        chosen: int | None = None,
    ) -> Take:
        return self._edits.add_take(
            sentence_id, audio, seed, worker, choose, chapter_reference, check, chosen
        )

    def choose_take(self, sentence_id: int, take_id: int) -> None:
        self._edits.choose_take(sentence_id, take_id)

    def edit_text(self, sentence_id: int, text: str) -> None:
        self._edits.edit_text(sentence_id, text)

    def regenerate(self, sentence_id: int) -> int:
        return self._edits.regenerate(sentence_id)

    def set_locked(self, sentence_id: int, locked: bool) -> None:
        self._edits.set_locked(sentence_id, locked)

    def set_speed(self, sentence_id: int, speed: int) -> None:
        self._edits.set_speed(sentence_id, speed)

    def mark_failed(self, sentence_id: int, message: str) -> None:
        self._edits.mark_failed(sentence_id, message)

    def set_reference(
        self, chapter_id: int, codes: str | None, text: str | None, voice: str | None = None
    ) -> None:
        self._edits.set_reference(chapter_id, codes, text, voice)

    def voices(self) -> dict[str, CastVoice]:
        return self._edits.voices()

    def set_voice(self, name: str, seed: int | None = None, speaker: str | None = None) -> None:
        self._edits.set_voice(name, seed, speaker)

    def lexicon(self) -> dict[str, str]:
        return self._edits.lexicon()

    def set_lexicon(self, word: str, replacement: str | None) -> None:
        self._edits.set_lexicon(word, replacement)


def _tries(value) -> int | None:
    """A stored number of tries, or None where it is not one in range."""
    low, high = TAKE_TRIES_RANGE
    if isinstance(value, str) and value.isdigit() and low <= int(value) <= high:
        return int(value)
    return None
