"""The changes a user or the renderer makes to a project, each one transaction. A Project holds
one Edits, given the project file's store, the project's seed and its set of damaged takes."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from app.core import SEED_MAX, SPEED_RANGE, insert, select
from app.i18n import _
from app.library import MAX_REFERENCE, MAX_SPEAKER
from app.narration.project import audio as takes_audio
from app.narration.project.errors import ProjectError
from app.narration.project.records import (
    MAX_ERROR,
    MAX_NAME,
    MAX_SENTENCE,
    MAX_WORD,
    MAX_WORKER,
    Take,
    sentence_seed,
)
from app.narration.project.schema import LEXICON_COLUMNS, TAKE_CHECK_COLUMNS, VOICE_COLUMNS
from app.narration.project.store import Store

MAX_VOICES = 1_000
MAX_LEXICON = 20_000


@dataclass(frozen=True)
class CastVoice:
    """The voice one of a script's speakers is read in (the library's saved voices are `Voice`)."""

    name: str  # the script's speaker name
    seed: int | None = None
    speaker: str | None = None  # a speaker string; wins over the seed


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Edits:
    def __init__(self, store: Store, seed: int, bad_takes: set[int]):
        """`seed`: the project's, which regenerated sentences derive theirs from; `bad_takes`:
        the project's set of takes that cannot be played (shared: the project adds to it)."""
        self.store = store
        self.seed = seed
        self.bad_takes = bad_takes

    @property
    def path(self) -> Path:
        return self.store.path

    def _row(self, con, sentence_id: int) -> sqlite3.Row:
        row = con.execute(
            "SELECT locked, chapter_id, idx, generation FROM sentences WHERE id = ?",
            (sentence_id,),
        ).fetchone()
        if row is None:
            raise ProjectError(
                _("That sentence is no longer in the project {file}.").format(file=self.path)
            )
        return row

    def _unlocked(self, con, sentence_id: int) -> sqlite3.Row:
        row = self._row(con, sentence_id)
        if row["locked"]:
            raise ProjectError(_("The sentence is locked; unlock it to change it."))
        return row

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
        """Store a new take of the sentence (chosen unless `choose` is False: the sentence is
        then done). `chapter_reference` (codes, text, voice) sets the chapter's locked voice
        in the same transaction, so a reference never exists without the take it came from.
        `check` is what the take checker found (checks.check_row); `chosen`, an earlier take
        of the sentence chosen instead of this one (the best of its tries)."""
        if type(seed) is not int or not 0 <= seed <= SEED_MAX:
            raise ProjectError(
                _("A take's seed must be a whole number from 0 to {high}.").format(high=SEED_MAX)
            )
        samples = np.clip(np.asarray(audio, dtype=np.float32).reshape(-1), -1.0, 1.0)
        try:
            blob = takes_audio.encode(samples)
        except takes_audio.TakeAudioError:
            raise ProjectError(
                _("The take is longer than {limit:.0f} seconds; split the sentence.").format(
                    limit=takes_audio.MAX_TAKE_SECONDS
                )
            ) from None
        created, worker = _now(), (worker or None) and str(worker)[:MAX_WORKER]
        with self.store.transaction() as con:
            chapter_id = self._row(con, sentence_id)["chapter_id"]
            take_id = con.execute(
                "INSERT INTO takes (sentence_id, seed, samples, created, worker, audio) VALUES (?, ?, ?, ?, ?, ?)",
                (sentence_id, seed, len(samples), created, worker, blob),
            ).lastrowid
            if check is not None:
                con.execute(
                    insert("take_checks", TAKE_CHECK_COLUMNS),
                    {**check, "take_id": take_id, "sentence_id": sentence_id},
                )
            if choose:
                con.execute(
                    "UPDATE sentences SET take_id = ?, status = 'done', error = NULL WHERE id = ?",
                    (take_id if chosen is None else chosen, sentence_id),
                )
            if chapter_reference is not None:
                self._write_reference(con, chapter_id, *chapter_reference)
        return Take(
            take_id, sentence_id, seed, len(samples) / takes_audio.SAMPLE_RATE, created, worker
        )

    def choose_take(self, sentence_id: int, take_id: int) -> None:
        if take_id in self.bad_takes:
            raise ProjectError(
                _("That take is damaged; choose another or regenerate the sentence.")
            )
        with self.store.transaction() as con:
            self._unlocked(con, sentence_id)
            if (
                con.execute(
                    "SELECT 1 FROM takes WHERE id = ? AND sentence_id = ?", (take_id, sentence_id)
                ).fetchone()
                is None
            ):
                raise ProjectError(_("That take does not belong to this sentence."))
            con.execute(
                "UPDATE sentences SET take_id = ?, status = 'done', error = NULL WHERE id = ?",
                (take_id, sentence_id),
            )

    def edit_text(self, sentence_id: int, text: str) -> None:
        """New words: the sentence is pending again (same seed) and no take is chosen; its
        earlier takes stay to compare."""
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_SENTENCE:
            raise ProjectError(
                _("A sentence must have text, at most {limit} characters.").format(
                    limit=MAX_SENTENCE
                )
            )
        with self.store.transaction() as con:
            self._unlocked(con, sentence_id)
            con.execute(
                "UPDATE sentences SET text = ?, status = 'pending', take_id = NULL, error = NULL "
                "WHERE id = ?",
                (text.strip(), sentence_id),
            )

    def regenerate(self, sentence_id: int) -> int:
        """A new seed (derived from the project's seed, the place and how many times it was
        regenerated) and pending again; the chosen take stays until the new one comes."""
        with self.store.transaction() as con:
            row = self._unlocked(con, sentence_id)
            chapter_id, idx, generation = row["chapter_id"], row["idx"], row["generation"]
            c_idx = con.execute("SELECT idx FROM chapters WHERE id = ?", (chapter_id,)).fetchone()
            generation = (generation if type(generation) is int else 0) + 1
            seed = sentence_seed(self.seed, c_idx["idx"] if c_idx else chapter_id, idx, generation)
            con.execute(
                "UPDATE sentences SET seed = ?, generation = ?, status = 'pending', error = NULL "
                "WHERE id = ?",
                (seed, generation, sentence_id),
            )
        return seed

    def set_locked(self, sentence_id: int, locked: bool) -> None:
        with self.store.transaction() as con:
            self._row(con, sentence_id)
            con.execute(
                "UPDATE sentences SET locked = ? WHERE id = ?", (1 if locked else 0, sentence_id)
            )

    def set_speed(self, sentence_id: int, speed: int) -> None:
        """A new speed ([speed_N]) makes the sentence pending again."""
        if type(speed) is not int or not SPEED_RANGE[0] <= speed <= SPEED_RANGE[1]:
            raise ProjectError(
                _("Speed must be a whole number from {low} to {high}.").format(
                    low=SPEED_RANGE[0], high=SPEED_RANGE[1]
                )
            )
        with self.store.transaction() as con:
            self._unlocked(con, sentence_id)
            con.execute(
                "UPDATE sentences SET speed = ?, status = 'pending', error = NULL WHERE id = ?",
                (speed, sentence_id),
            )

    def mark_failed(self, sentence_id: int, message: str) -> None:
        with self.store.transaction() as con:
            self._row(con, sentence_id)
            con.execute(
                "UPDATE sentences SET status = 'failed', error = ? WHERE id = ?",
                (str(message)[:MAX_ERROR], sentence_id),
            )

    # -- a chapter's voice -------------------------------------------------------------------------
    def set_reference(
        self, chapter_id: int, codes: str | None, text: str | None, voice: str | None = None
    ) -> None:
        """The chapter's locked voice (None clears it: the next render makes a new one)."""
        with self.store.transaction() as con:
            if con.execute("SELECT 1 FROM chapters WHERE id = ?", (chapter_id,)).fetchone() is None:
                raise ProjectError(
                    _("That chapter is no longer in the project {file}.").format(file=self.path)
                )
            self._write_reference(con, chapter_id, codes, text, voice)

    @staticmethod
    def _write_reference(con, chapter_id, codes, text, voice=None) -> None:
        if codes is not None and (
            not isinstance(codes, str)
            or len(codes) > MAX_REFERENCE
            or not isinstance(text, str)
            or len(text) > MAX_SENTENCE
        ):
            raise ProjectError(_("The chapter's voice reference is too large or not text."))
        con.execute(
            "UPDATE chapters SET reference = ?, reference_text = ?, reference_voice = ? WHERE id = ?",
            (
                codes or None,
                text if codes else None,
                (voice or None) if codes else None,
                chapter_id,
            ),
        )

    # -- voices and lexicon ------------------------------------------------------------------------
    def voices(self) -> dict[str, CastVoice]:
        out = {}
        for row in self.store.named_rows(
            f"SELECT {select(VOICE_COLUMNS)} FROM voices LIMIT {MAX_VOICES}"
        ):
            name, seed, speaker = row["name"], row["seed"], row["speaker"]
            if (
                isinstance(name, str)
                and 0 < len(name) <= MAX_NAME
                and (seed is None or (type(seed) is int and 0 <= seed <= SEED_MAX))
                and (speaker is None or (isinstance(speaker, str) and len(speaker) <= MAX_SPEAKER))
                and (seed is not None or speaker)
            ):
                out[name] = CastVoice(name, seed, speaker or None)
        return out

    def set_voice(self, name: str, seed: int | None = None, speaker: str | None = None) -> None:
        """The voice a script speaker (`name`) speaks with; neither seed nor speaker removes it."""
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ProjectError(
                _("A voice needs a name of at most {limit} characters.").format(limit=MAX_NAME)
            )
        if seed is not None and (type(seed) is not int or not 0 <= seed <= SEED_MAX):
            raise ProjectError(
                _("A voice's seed must be a whole number from 0 to {high}.").format(high=SEED_MAX)
            )
        if speaker is not None and (not isinstance(speaker, str) or len(speaker) > MAX_SPEAKER):
            raise ProjectError(_("The voice's speaker string is too long; choose the voice again."))
        with self.store.transaction() as con:
            if seed is None and not speaker:
                con.execute("DELETE FROM voices WHERE name = ?", (name,))
            else:
                con.execute(
                    insert("voices", VOICE_COLUMNS, "INSERT OR REPLACE"),
                    {"name": name, "seed": seed, "speaker": speaker or None},
                )

    def lexicon(self) -> dict[str, str]:
        rows = self.store.named_rows(
            f"SELECT {select(LEXICON_COLUMNS)} FROM lexicon LIMIT {MAX_LEXICON}"
        )
        return {
            w: r
            for w, r in ((row["word"], row["replacement"]) for row in rows)
            if isinstance(w, str)
            and isinstance(r, str)
            and 0 < len(w) <= MAX_WORD
            and len(r) <= MAX_WORD * 4
        }

    def set_lexicon(self, word: str, replacement: str | None) -> None:
        """How `word` is spoken in this project (None removes it); pending sentences use it."""
        if (
            not isinstance(word, str)
            or not word.strip()
            or len(word) > MAX_WORD
            or (
                replacement is not None
                and (not isinstance(replacement, str) or len(replacement) > MAX_WORD * 4)
            )
        ):
            raise ProjectError(
                _("A lexicon entry needs a word of at most {limit} characters.").format(
                    limit=MAX_WORD
                )
            )
        with self.store.transaction() as con:
            if replacement is None:
                con.execute("DELETE FROM lexicon WHERE word = ?", (word,))
            else:
                con.execute(
                    insert("lexicon", LEXICON_COLUMNS, "INSERT OR REPLACE"),
                    {"word": word, "replacement": replacement},
                )
