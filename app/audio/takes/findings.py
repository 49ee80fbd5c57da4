"""What the take checker found: typed findings, each with one sentence for people, and the
report a caller picks the best take by."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from app.i18n import _


class FindingKind(enum.Enum):
    NO_SPEECH = "no_speech"
    LITTLE_SPEECH = "little_speech"
    CUT_OFF = "cut_off"
    TOO_LONG = "too_long"
    LONG_SILENCE = "long_silence"
    VOICE_DRIFT = "voice_drift"
    CLIPPING = "clipping"
    LEVEL = "level"


# How much each kind costs a take's score: a take without speech is worthless, a level a
# little off is a small fault; the best take is the one with the highest score.
PENALTY = {
    FindingKind.NO_SPEECH: 1.0,
    FindingKind.LITTLE_SPEECH: 0.6,
    FindingKind.CUT_OFF: 0.5,
    FindingKind.TOO_LONG: 0.5,
    FindingKind.LONG_SILENCE: 0.3,
    FindingKind.VOICE_DRIFT: 0.4,
    FindingKind.CLIPPING: 0.3,
    FindingKind.LEVEL: 0.1,
}


@dataclass(frozen=True)
class Finding:
    """One fault: its kind, the measured value and the limit it crossed (for JSON and logs),
    and a sentence saying it (an `app.i18n.Phrase`, said again in the user's language)."""

    kind: FindingKind
    value: float
    limit: float
    reason: str

    @classmethod
    def of(cls, kind: FindingKind, value: float, limit: float) -> Finding:
        """A finding from its values (one read back from a file), its sentence said anew."""
        return cls(kind, value, limit, reason(kind, value, limit))

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "value": round(self.value, 4),
            "limit": round(self.limit, 4),
            "reason": str(self.reason),
        }


@dataclass(frozen=True)
class TakeReport:
    """The findings on one take and what was measured. `checked` is False where the
    voice-activity model is missing; `note` then says so."""

    findings: tuple[Finding, ...]
    seconds: float
    speech_seconds: float
    expected_speech_seconds: float | None
    voice_similarity: float | None = None
    speech_dbfs: float | None = None
    checked: bool = True
    note: str | None = None
    measures: dict[str, float] = field(default_factory=dict)

    @property
    def flagged(self) -> bool:
        return bool(self.findings)

    @property
    def score(self) -> float:
        """1.0 for a clean take, less for each finding by its kind's weight, never below 0."""
        return max(0.0, 1.0 - sum(PENALTY[f.kind] for f in self.findings))

    def kinds(self) -> set[FindingKind]:
        return {f.kind for f in self.findings}

    def as_dict(self) -> dict[str, object]:
        return {
            "checked": self.checked,
            "note": None if self.note is None else str(self.note),
            "score": round(self.score, 4),
            "seconds": round(self.seconds, 3),
            "speech_seconds": round(self.speech_seconds, 3),
            "expected_speech_seconds": None
            if self.expected_speech_seconds is None
            else round(self.expected_speech_seconds, 3),
            "voice_similarity": None
            if self.voice_similarity is None
            else round(self.voice_similarity, 4),
            "speech_dbfs": None if self.speech_dbfs is None else round(self.speech_dbfs, 2),
            "findings": [f.as_dict() for f in self.findings],
        }


def reason(kind: FindingKind, value: float, limit: float) -> str:
    """The one sentence that says a finding, in the user's language."""
    if kind is FindingKind.NO_SPEECH:
        return _("The take has no speech (only {seconds} s sound like a voice).").format(
            seconds=f"{value:.2f}"
        )
    if kind is FindingKind.LITTLE_SPEECH:
        return _(
            "The take has far less speech than its text needs ({percent} per cent of the expected time)."
        ).format(percent=f"{value * 100:.0f}")
    if kind is FindingKind.CUT_OFF:
        return _(
            "The take seems cut off: it ends mid-speech or is too short for its text ({percent} per cent "
            "of the expected time)."
        ).format(percent=f"{value * 100:.0f}")
    if kind is FindingKind.TOO_LONG:
        return _(
            "The take is far longer than its text needs ({percent} per cent of the expected time): "
            "a repetition or babble."
        ).format(percent=f"{value * 100:.0f}")
    if kind is FindingKind.LONG_SILENCE:
        return _("The take has a silence of {seconds} s inside its speech.").format(
            seconds=f"{value:.1f}"
        )
    if kind is FindingKind.VOICE_DRIFT:
        return _(
            "The voice differs from the reference voice (similarity {value}, below {limit})."
        ).format(value=f"{value:.2f}", limit=f"{limit:.2f}")
    if kind is FindingKind.CLIPPING:
        return _("The take is clipped ({percent} per cent of its samples at full scale).").format(
            percent=f"{value * 100:.2f}"
        )
    return _("The take's loudness ({level} dBFS) is far from the expected level.").format(
        level=f"{value:.1f}"
    )
