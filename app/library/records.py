"""Typed shapes of what the library stores and imports (pydantic v2, strict: no silent coercion).

A row or a legacy record that does not fit is skipped by its reader with a sentence naming the
file and the field; nothing here ever raises anything but `RecordError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.core import ModelKind, RecordError, first_bad_field
from app.i18n import _

MAX_NAME = 200
MAX_SPEAKER = 64_000  # a speaker string is ~1.1 KB for the official model
MAX_REFERENCE = 2_000_000  # audio codes of a reference recording
MAX_TEXT = 200_000
MAX_WORD = 500
# torch.manual_seed accepts [-0x8000_0000_0000_0000, 0xffff_ffff_ffff_ffff]; we keep to
# non-negative values that SQLite's 64-bit integer also holds.
SEED_MAX = 2**63 - 1


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=False)


class VoiceRecord(_Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME)
    speaker: str = Field(default="", max_length=MAX_SPEAKER)
    seed: int | None = Field(default=None, ge=0, le=SEED_MAX)
    notes: str = Field(default="", max_length=MAX_TEXT)
    created: str = Field(default="", max_length=64)
    reference: str | None = Field(default=None, max_length=MAX_REFERENCE)
    reference_text: str | None = Field(default=None, max_length=MAX_TEXT)


class _HistoryFields(_Strict):
    text: str = Field(max_length=MAX_TEXT)
    request: dict[str, Any]
    duration: float = Field(ge=0)
    created: str = Field(max_length=64)
    device: str = Field(default="", max_length=200)
    synth_seconds: float = Field(default=0.0, ge=0)
    speaker: str = Field(default="", max_length=MAX_SPEAKER)


class HistoryRecord(_HistoryFields):
    """A history row. Strict: its reader turns the stored word into a ModelKind first."""

    model_kind: ModelKind = ModelKind.OFFICIAL


class LegacyHistoryRecord(_HistoryFields):
    """A history entry of the JSON files before the library: a flag where the kind is now."""

    test_model: bool = False

    def kind(self) -> ModelKind:
        return ModelKind.RANDOM_WEIGHTS if self.test_model else ModelKind.OFFICIAL


class LexiconEntry(_Strict):
    word: str = Field(min_length=1, max_length=MAX_WORD)
    replacement: str = Field(max_length=MAX_WORD * 4)


def parse(model: type[_Strict], data: Any, where: str):
    """`model` from `data`, or RecordError naming `where` and the first bad field."""
    if not isinstance(data, dict):
        raise RecordError(
            _("{where}: the record is not an object; it was skipped.").format(where=where),
            "(the record itself)",
        )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        field = first_bad_field(exc)
        raise RecordError(
            _("{where}: the field '{field}' is not valid; the record was skipped.").format(
                where=where, field=field
            ),
            field,
        ) from None


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
