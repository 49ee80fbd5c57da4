"""One-time import of the JSON files earlier versions wrote (history, voices, pronunciations).

Each source is imported in one transaction, recorded in `imports` (so two copies starting at
once import it once), then renamed with a dated suffix: never deleted. A record that does not
fit is skipped with a sentence naming the file and the field; the rest is imported. History
WAVs are taken only when their stored name is a plain file name inside the old history folder.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from app.core import RecordError, UnreadableFileError, insert, read_json_capped
from app.i18n import _, join_sentences
from app.library import notices
from app.library.notices import WHOLE_FILE, Notice, NoticeKind
from app.library.records import LegacyHistoryRecord, LexiconEntry, parse, voice_from_record
from app.library.schema import HISTORY_COLUMNS, LEXICON_COLUMNS, VOICE_COLUMNS

log = logging.getLogger("chattts_studio.library")

MAX_INDEX_BYTES = 64 * 1024 * 1024
MAX_VOICE_BYTES = 4 * 1024 * 1024
MAX_VOICE_FILES = 10_000
_WAV_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,120}\.wav")


class Target(Protocol):
    """The library the files are imported into (db.Library, which runs the import while it
    opens: the import is given it rather than importing it)."""

    audio_dir: Path

    def transaction(self) -> AbstractContextManager[Any]: ...

    def audio_path(self, row_id: int) -> Path: ...


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _rename(path: Path, label: str) -> Path | None:
    target = path.with_name(f"{path.name}.{label}-{_stamp()}")
    try:
        os.replace(path, target)
    except FileNotFoundError:  # another copy of the program renamed it first
        return None
    return target


def _kept_as(problem: Exception, renamed: Path | None) -> str:
    return join_sentences([str(problem), _("It was kept as {file}.").format(file=renamed)])


def _claim(con, source: str) -> bool:
    """Inside the import transaction: True if nobody imported `source` yet (and mark it)."""
    if con.execute("SELECT 1 FROM imports WHERE source = ?", (source,)).fetchone():
        return False
    con.execute("INSERT INTO imports (source, imported) VALUES (?, ?)", (source, _stamp()))
    return True


def _legacy_wav(folder: Path, name) -> Path | None:
    """The old WAV if its stored name is a plain file name that stays inside `folder`."""
    if not isinstance(name, str) or not _WAV_NAME.fullmatch(name) or ".." in name:
        return None
    candidate = folder / name
    try:
        if (
            candidate.resolve().parent != folder.resolve()
            or not candidate.is_file()
            or candidate.is_symlink()
        ):
            return None
    except OSError:
        return None
    return candidate


def _import_history(lib: Target, folder: Path) -> list[Notice]:
    index = folder / "index.json"
    if not index.is_file():
        return []
    out: list[Notice] = []
    try:
        raw = read_json_capped(index, MAX_INDEX_BYTES, _("history index"))
    except UnreadableFileError as exc:
        renamed = _rename(index, "unreadable")
        out.append(
            Notice(NoticeKind.SKIPPED, _kept_as(exc, renamed), (str(renamed or index), WHOLE_FILE))
        )
        return out
    items = raw if isinstance(raw, list) else []
    if not isinstance(raw, list):
        out.append(notices.skipped(str(index), WHOLE_FILE))
    moves: list[tuple[Path, int]] = []
    with lib.transaction() as con:
        if not _claim(con, "history/index.json"):
            return []
        for n, item in reversed(list(enumerate(items))):  # oldest first: ids grow with age
            where = _("{file} (entry {number})").format(file=index, number=n + 1)
            try:
                record = parse(LegacyHistoryRecord, item, where)
            except RecordError as exc:
                out.append(notices.skipped(where, exc.field))
                continue
            wav = _legacy_wav(folder, item.get("wav"))
            if wav is None:
                out.append(notices.skipped(where, "wav"))
                continue
            data = record.model_dump(exclude={"test_model"})
            data["request"] = json.dumps(data["request"], ensure_ascii=False)
            data["model_kind"] = record.kind().value
            data["marks"] = ""  # the JSON files kept no sentence boundaries
            data["take_check"] = ""  # nor any take check
            row_id = con.execute(insert("history", HISTORY_COLUMNS), data).lastrowid
            moves.append((wav, row_id))
    lib.audio_dir.mkdir(parents=True, exist_ok=True)
    for wav, row_id in moves:
        try:
            os.replace(wav, lib.audio_path(row_id))
        except OSError as exc:
            log.warning("history audio %s was not moved (%s); it stays where it is", wav, exc)
    renamed = _rename(index, "imported")
    if renamed:
        out.append(notices.imported(str(index), str(renamed)))
    return out


def _import_voices(lib: Target, folder: Path) -> list[Notice]:
    if not folder.is_dir():
        return []
    out: list[Notice] = []
    voices = []
    for path in sorted(folder.glob("*.json"))[:MAX_VOICE_FILES]:
        try:
            data = read_json_capped(path, MAX_VOICE_BYTES, _("voice file"))
            voices.append(voice_from_record(data, str(path)))
        except UnreadableFileError:
            out.append(notices.skipped(str(path), WHOLE_FILE))
        except RecordError as exc:
            out.append(notices.skipped(str(path), exc.field))
    with lib.transaction() as con:
        if not _claim(con, "voices/"):
            return []
        con.executemany(
            insert("voices", VOICE_COLUMNS, "INSERT OR IGNORE"),
            [dataclasses.asdict(v) for v in voices],
        )
    renamed = _rename(folder, "imported")
    if renamed:
        out.append(notices.imported(str(folder), str(renamed)))
    return out


def _import_lexicon(lib: Target, path: Path) -> list[Notice]:
    if not path.is_file():
        return []
    out: list[Notice] = []
    try:
        raw = read_json_capped(path, MAX_VOICE_BYTES, _("pronunciation dictionary"))
    except UnreadableFileError as exc:
        renamed = _rename(path, "unreadable")
        out.append(
            Notice(NoticeKind.SKIPPED, _kept_as(exc, renamed), (str(renamed or path), WHOLE_FILE))
        )
        return out
    entries = []
    for word, replacement in raw.items() if isinstance(raw, dict) else []:
        try:
            entry = parse(
                LexiconEntry, {"word": word.strip(), "replacement": replacement}, str(path)
            )
            entries.append(entry.model_dump())
        except RecordError:
            out.append(notices.skipped(str(path), str(word)[:40]))
    if not isinstance(raw, dict):
        out.append(notices.skipped(str(path), WHOLE_FILE))
    with lib.transaction() as con:
        if not _claim(con, "pronunciations.json"):
            return []
        con.executemany(insert("lexicon", LEXICON_COLUMNS, "INSERT OR IGNORE"), entries)
    renamed = _rename(path, "imported")
    if renamed:
        out.append(notices.imported(str(path), str(renamed)))
    return out


def import_legacy(lib: Target, data_dir: Path) -> list[Notice]:
    """Import whatever earlier versions left in `data_dir`; the notices to show the user."""
    out: list[Notice] = []
    out += _import_history(lib, data_dir / "history")
    out += _import_voices(lib, data_dir / "voices")
    out += _import_lexicon(lib, data_dir / "pronunciations.json")
    return out
