"""Saved voices: a row per voice, unique by name. Files are only for import and export."""

from __future__ import annotations

import logging
from pathlib import Path

from app.core import RecordError, VoiceError, insert, select
from app.i18n import _
from app.library.db import Library, as_library
from app.library.records import Voice, voice_from_record
from app.library.schema import VOICE_COLUMNS

log = logging.getLogger("chattts_studio.voices")


def _values(voice: Voice) -> dict:
    return {c: getattr(voice, c) for c in VOICE_COLUMNS}


class VoiceLibrary:
    def __init__(self, library: Library | Path | str | None = None):
        self.library = as_library(library)

    def list(self) -> list[Voice]:
        voices = []
        for row in self.library.named_rows(f"SELECT id, {select(VOICE_COLUMNS)} FROM voices"):
            try:
                voices.append(
                    voice_from_record(
                        {c: row[c] for c in VOICE_COLUMNS},
                        _("{file} (voice row {row})").format(file=self.library.path, row=row["id"]),
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
            voice_from_record(_values(voice), f"voice '{name[:80]}'")
        except RecordError as exc:
            raise VoiceError(
                _("The voice '{name}' cannot be saved: its field '{field}' is not valid.").format(
                    name=name[:80], field=exc.field
                )
            ) from None
        with self.library.transaction() as con:
            con.execute(
                insert("voices", VOICE_COLUMNS)
                + " ON CONFLICT(name) DO UPDATE SET "
                + ", ".join(f"{k} = excluded.{k}" for k in VOICE_COLUMNS if k != "name"),
                _values(voice),
            )
        return voice

    def delete(self, name: str) -> None:
        with self.library.transaction() as con:
            con.execute("DELETE FROM voices WHERE name = ?", (name,))
