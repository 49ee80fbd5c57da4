"""What the project gives out (plain frozen dataclasses) and the checks every row read back
passes first. A row that fails its check is skipped and named in the project's notices; its
values never reach the window, the renderer or export.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from enum import StrEnum

from app.core import SEED_MAX, SPEED_RANGE
from app.library import MAX_REFERENCE
from app.narration.project.checks import TakeCheck

MAX_TITLE = 1_000
MAX_SENTENCE = 10_000  # a source sentence is far shorter; a hostile row is not
MAX_ERROR = 4_000
MAX_NAME = 200
MAX_WORD = 500
MAX_TIME = 10 * 24 * 3600.0  # cue times: ten days is no real subtitle file
MAX_COUNT = 2**31 - 1  # ids, positions, generations, sample counts
MAX_WORKER = 200


class SentenceStatus(StrEnum):
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


@dataclass(frozen=True)
class Chapter:
    id: int
    index: int
    title: str
    reference: str | None = None  # the chapter's locked voice: audio codes
    reference_text: str | None = None  # and the transcript they were made from
    reference_voice: str | None = None  # the script speaker whose voice it is (None: narrator)


@dataclass(frozen=True)
class Sentence:
    id: int
    chapter_id: int
    index: int
    text: str
    speaker: str | None
    start: float | None
    end: float | None
    seed: int
    speed: int
    status: SentenceStatus
    locked: bool
    take_id: int | None
    duration: float | None  # the chosen take's, seconds
    error: str | None
    check: TakeCheck | None = None  # what the take checker found in the chosen take


@dataclass(frozen=True)
class Take:
    id: int
    sentence_id: int
    seed: int
    duration: float
    created: str
    worker: str | None


def sentence_seed(base: int, chapter_index: int, sentence_index: int, generation: int = 0) -> int:
    """A sentence's sampling seed from the project's seed and its place: the same book made
    into a project twice renders the same; `generation` counts regenerations."""
    key = f"{int(base)}:{int(chapter_index)}:{int(sentence_index)}:{int(generation)}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % (SEED_MAX + 1)


# -- checks of rows read back --------------------------------------------------------------------
def _int(v, low=0, high=MAX_COUNT) -> bool:
    return type(v) is int and low <= v <= high


def _text(v, cap, empty=False) -> bool:
    return isinstance(v, str) and len(v) <= cap and (empty or bool(v.strip()))


def _opt_text(v, cap) -> bool:
    return v is None or _text(v, cap, empty=True)


def _time(v) -> bool:
    return v is None or (
        isinstance(v, (int, float))
        and not isinstance(v, bool)
        and math.isfinite(v)
        and 0 <= v <= MAX_TIME
    )


# A row below is read by column name (schema.py's lists): a sqlite3.Row or a dict.
def chapter_from_row(row) -> Chapter | None:
    cid, idx, title = row["id"], row["idx"], row["title"]
    ref, ref_text, ref_voice = row["reference"], row["reference_text"], row["reference_voice"]
    if not (
        _int(cid)
        and _int(idx)
        and _text(title, MAX_TITLE, empty=True)
        and _opt_text(ref, MAX_REFERENCE)
        and _opt_text(ref_text, MAX_SENTENCE)
        and _opt_text(ref_voice, MAX_NAME)
    ):
        return None
    return Chapter(
        cid, idx, title, ref or None, ref_text if ref else None, ref_voice if ref else None
    )


def bad_sentence_field(row) -> str | None:
    """The first field of a sentence row that fails its check, or None."""
    start, end, take_id = row["start"], row["end"], row["take_id"]
    checks = (
        ("id", _int(row["id"])),
        ("chapter", _int(row["chapter_id"])),
        ("index", _int(row["idx"])),
        ("text", _text(row["text"], MAX_SENTENCE)),
        ("speaker", _opt_text(row["speaker"], MAX_NAME)),
        ("start", _time(start)),
        ("end", _time(end) and (end is None or start is None or end >= start)),
        ("seed", _int(row["seed"], 0, SEED_MAX)),
        ("speed", _int(row["speed"], *SPEED_RANGE)),
        ("status", row["status"] in tuple(SentenceStatus)),
        ("locked", row["locked"] in (0, 1) and type(row["locked"]) is int),
        ("error", _opt_text(row["error"], MAX_ERROR)),
        ("take", take_id is None or _int(take_id)),
    )
    return next((name for name, ok in checks if not ok), None)


def sentence_from_row(
    row, durations: dict[int, float], checks: dict[int, TakeCheck] | None = None
) -> Sentence | None:
    if bad_sentence_field(row) is not None:
        return None
    take_id, start, end = row["take_id"], row["start"], row["end"]
    status = SentenceStatus(row["status"])
    duration = durations.get(take_id) if take_id is not None else None
    if duration is None:
        take_id = None  # a chosen take that is gone or unreadable: nothing to play
        if status == SentenceStatus.DONE:
            status = SentenceStatus.PENDING
    return Sentence(
        row["id"],
        row["chapter_id"],
        row["idx"],
        row["text"],
        row["speaker"] or None,
        None if start is None else float(start),
        None if end is None else float(end),
        row["seed"],
        row["speed"],
        status,
        bool(row["locked"]),
        take_id,
        duration,
        row["error"],
        None if take_id is None or checks is None else checks.get(take_id),
    )


def take_from_row(row, sample_rate: int) -> Take | None:
    tid, sid, seed, samples = row["id"], row["sentence_id"], row["seed"], row["samples"]
    created, worker = row["created"], row["worker"]
    if not (
        _int(tid)
        and _int(sid)
        and _int(seed, 0, SEED_MAX)
        and _int(samples, 0, 600 * sample_rate)
        and _text(created, 64, empty=True)
        and _opt_text(worker, MAX_WORKER)
    ):
        return None
    return Take(tid, sid, seed, samples / sample_rate, created, worker)
