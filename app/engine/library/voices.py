"""Saved voices: a row per voice, unique by name. Files are only for import and export."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from app.engine.errors import RecordError, VoiceError
from app.engine.library.db import Library, as_library
from app.engine.library.records import VoiceRecord, parse
from app.i18n import _

log = logging.getLogger("chattts_studio.voices")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Voice:
    name: str
    speaker: str  # base16384 speaker embedding ("" for a reference-only voice)
    seed: int | None = None
    notes: str = ""
    created: str = field(default_factory=_now)
    reference: str | None = None  # audio codes of a reference recording (ChatTTS spk_smp)
    reference_text: str | None = None  # what is said in that recording


FIELDS = ("name", "speaker", "seed", "notes", "created", "reference", "reference_text")


def voice_from_record(data, where: str) -> Voice:
    """A Voice from untrusted data; RecordError naming `where` and the field if it does not fit."""
    record = parse(VoiceRecord, data, where)
    if not (record.speaker or record.reference):
        raise RecordError(
            _(
                "{where}: the field '{field}' is empty and there is no reference; the record was "
                "skipped."
            ).format(where=where, field="speaker"),
            "speaker",
        )
    return Voice(**record.model_dump())


class VoiceLibrary:
    def __init__(self, library: Library | Path | str | None = None):
        self.library = as_library(library)

    def list(self) -> list[Voice]:
        voices = []
        for row in self.library.rows(f"SELECT id, {', '.join(FIELDS)} FROM voices"):
            try:
                voices.append(
                    voice_from_record(
                        dict(zip(FIELDS, row[1:])),
                        _("{file} (voice row {row})").format(file=self.library.path, row=row[0]),
                    )
                )
            except RecordError as exc:
                log.warning("%s", exc)
        return sorted(voices, key=lambda v: v.name.casefold())

    def get(self, name: str) -> Voice | None:
        return next((v for v in self.list() if v.name == name), None)

    def save(self, voice: Voice) -> Voice:
        name = voice.name.strip()
        if not name:
            raise VoiceError(_("Give the voice a name before saving it."))
        voice.name = name
        try:
            voice_from_record({k: getattr(voice, k) for k in FIELDS}, f"voice '{name[:80]}'")
        except RecordError as exc:
            raise VoiceError(
                _("The voice '{name}' cannot be saved: its field '{field}' is not valid.").format(
                    name=name[:80], field=exc.field
                )
            ) from None
        with self.library.transaction() as con:
            con.execute(
                f"INSERT INTO voices ({', '.join(FIELDS)}) VALUES ({', '.join('?' * len(FIELDS))}) "
                "ON CONFLICT(name) DO UPDATE SET "
                + ", ".join(f"{k} = excluded.{k}" for k in FIELDS if k != "name"),
                tuple(getattr(voice, k) for k in FIELDS),
            )
        return voice

    def delete(self, name: str) -> None:
        with self.library.transaction() as con:
            con.execute("DELETE FROM voices WHERE name = ?", (name,))
