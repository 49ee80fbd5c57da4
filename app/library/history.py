"""Results kept across restarts: a row per result and a WAV named from the row id."""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from app.audio import write_wav
from app.core import (
    ModelKind,
    RecordError,
    SamplingParams,
    SegmentMark,
    SynthesisRequest,
    SynthesisResult,
    insert,
    select,
)
from app.i18n import _
from app.library.db import Library, as_library
from app.library.marks import read_marks, write_marks
from app.library.records import HistoryRecord, parse
from app.library.schema import HISTORY_COLUMNS
from app.library.take_checks import TakeCheck, read_take_check, write_take_check

log = logging.getLogger("chattts_studio.history")

MAX_ENTRIES = 200  # older results (and their WAVs) are dropped beyond this
SELECT_ROWS = f"SELECT id, {select(HISTORY_COLUMNS)} FROM history"


@dataclass
class HistoryEntry:
    id: str
    text: str
    request: dict
    duration: float
    created: str
    device: str
    synth_seconds: float
    model_kind: ModelKind  # random weights: the entry's audio is noise, not speech
    speaker: str = ""
    marks: list[SegmentMark] = dataclasses.field(default_factory=list)  # [] plays unhighlighted
    take_check: TakeCheck | None = None  # what the take checker found; None: not checked yet

    def to_request(self) -> SynthesisRequest:
        """The same settings again, for "regenerate"; raises InputTextError if they are not valid."""
        data = dict(self.request)
        sampling_data = data.pop("sampling", {})
        sampling_known = {f.name for f in dataclasses.fields(SamplingParams)}
        sampling = SamplingParams(
            **{
                k: v
                for k, v in (sampling_data if isinstance(sampling_data, dict) else {}).items()
                if k in sampling_known
            }
        )
        known = {f.name for f in dataclasses.fields(SynthesisRequest)} - {"sampling"}
        return SynthesisRequest(sampling=sampling, **{k: v for k, v in data.items() if k in known})


class HistoryStore:
    def __init__(self, library: Library | Path | str | None = None):
        self.library = as_library(library)

    @property
    def notices(self):
        return self.library.notices

    def _entry(self, row_id: int, row) -> HistoryEntry:
        """The entry of a row (by column name: a named row or a dict of the values written)."""
        data = {c: row[c] for c in HISTORY_COLUMNS}
        where = _("{file} (history row {row})").format(file=self.library.path, row=row_id)
        marks = read_marks(data.pop("marks"), where)
        take_check = read_take_check(data.pop("take_check"), where)
        try:
            data["request"] = (
                json.loads(data["request"]) if isinstance(data["request"], str) else None
            )
        except ValueError:
            data["request"] = None
        # A word that names no kind stays as it is: parsing names the field and skips the row.
        if data["model_kind"] in set(ModelKind):
            data["model_kind"] = ModelKind(data["model_kind"])
        record = parse(HistoryRecord, data, where)
        return HistoryEntry(
            id=str(row_id), **record.model_dump(), marks=marks, take_check=take_check
        )

    def entries(self) -> list[HistoryEntry]:
        """Newest first; rows that do not fit or whose WAV has gone are skipped."""
        out = []
        for row in self.library.named_rows(f"{SELECT_ROWS} ORDER BY id DESC"):
            try:
                entry = self._entry(row["id"], row)
            except RecordError as exc:
                log.warning("%s", exc)
                continue
            if self.library.audio_path(row["id"]).is_file():
                out.append(entry)
        return out

    def add(
        self,
        request: SynthesisRequest,
        result: SynthesisResult,
        model_kind: ModelKind,
        take_check: TakeCheck | None = None,
    ) -> HistoryEntry:
        """Store a result made by a model of `model_kind`; raises OutputError or LibraryError
        (with a sentence) when it cannot."""
        values = {
            "text": request.text,
            "request": json.dumps(dataclasses.asdict(request), ensure_ascii=False),
            "duration": round(result.duration, 3),
            "created": datetime.now().isoformat(timespec="seconds"),
            "device": result.device,
            "synth_seconds": round(result.synth_seconds, 3),
            "model_kind": model_kind.value,
            "speaker": result.speaker or "",
            "marks": write_marks(result.marks),
            "take_check": write_take_check(take_check),
        }
        pruned: list[int] = []
        self.library.audio_dir.mkdir(parents=True, exist_ok=True)
        with self.library.transaction() as con:
            row_id = con.execute(insert("history", HISTORY_COLUMNS), values).lastrowid
            # Written inside the transaction: if the WAV fails, the row is rolled back.
            write_wav(
                self.library.audio_path(row_id),
                result.audio,
                result.sample_rate,
                follow_links=False,
            )
            pruned = [
                r["id"]
                for r in con.execute(
                    "SELECT id FROM history ORDER BY id DESC LIMIT -1 OFFSET ?", (MAX_ENTRIES,)
                )
            ]
            con.executemany("DELETE FROM history WHERE id = ?", [(i,) for i in pruned])
        for old in pruned:
            self.library.audio_path(old).unlink(missing_ok=True)
        return self._entry(row_id, values)

    @staticmethod
    def _row_id(entry_id) -> int | None:
        """The row id in `entry_id` (an int, or the string of its ASCII digits that an entry's id
        is), else None: a file is only ever named from this integer, never from the caller's text
        (tests/engine/library/test_stores.py holds decoys a path-like id would reach)."""
        if (
            isinstance(entry_id, str)
            and entry_id.isascii()
            and entry_id.isdigit()
            and len(entry_id) <= 18
        ):
            entry_id = int(entry_id)
        if isinstance(entry_id, int) and not isinstance(entry_id, bool) and 0 < entry_id < 2**63:
            return entry_id  # SQLite's integers: a larger one raises OverflowError
        return None

    def get(self, entry_id: str) -> HistoryEntry | None:
        row_id = self._row_id(entry_id)
        if row_id is None:
            return None
        rows = self.library.named_rows(f"{SELECT_ROWS} WHERE id = ?", (row_id,))
        if not rows or not self.library.audio_path(row_id).is_file():
            return None
        try:
            return self._entry(row_id, rows[0])
        except RecordError:
            return None

    def set_take_check(self, entry_id: str, check: TakeCheck) -> bool:
        """Keep what the take checker found in an entry; False where the entry has gone."""
        row_id = self._row_id(entry_id)
        if row_id is None:
            return False
        with self.library.transaction() as con:
            changed = con.execute(
                "UPDATE history SET take_check = ? WHERE id = ?",
                (write_take_check(check), row_id),
            ).rowcount
        return changed > 0

    def wav_path(self, entry: HistoryEntry) -> Path:
        return self.library.audio_path(int(entry.id))

    def audio(self, entry: HistoryEntry) -> tuple[np.ndarray, int]:
        import soundfile as sf

        data, rate = sf.read(str(self.wav_path(entry)), dtype="float32")
        return data.reshape(-1), rate

    def delete(self, entry_id: str) -> None:
        row_id = self._row_id(entry_id)
        if row_id is None:
            return
        with self.library.transaction() as con:
            con.execute("DELETE FROM history WHERE id = ?", (row_id,))
        self.library.audio_path(row_id).unlink(missing_ok=True)
