"""What an export did: the files written, where chapters and sentences are in them, warnings."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from app.narration.export.timeline import CueOverflow, Span


@dataclass(frozen=True)
class ExportedFile:
    path: Path
    kind: str  # "audio" or "subtitles"
    chapter: int | None = None  # None: the whole narration
    duration: float | None = None  # seconds (audio)
    sample_rate: int | None = None
    spans: tuple[Span, ...] = ()  # each sentence in this file, in samples at sample_rate
    chapter_starts: tuple[float, ...] = ()  # seconds, for the one file
    loudness: float | None = None  # LUFS as written
    true_peak: float | None = None  # dBTP as written
    bitrate: int | None = None  # kbit/s, lossy formats

    def to_json(self) -> dict:
        return {
            "path": str(self.path),
            "kind": self.kind,
            "chapter": self.chapter,
            "duration": self.duration,
            "sample_rate": self.sample_rate,
            "chapter_starts": list(self.chapter_starts),
            "loudness": self.loudness,
            "true_peak": self.true_peak,
            "bitrate": self.bitrate,
            "sentences": [
                {
                    "chapter": s.chapter,
                    "sentence": s.sentence,
                    "start": s.start / self.sample_rate,
                    "end": s.end / self.sample_rate,
                }
                for s in self.spans
            ]
            if self.sample_rate
            else [],
        }


@dataclass(frozen=True)
class FlaggedSentence:
    """A sentence exported with a take the take checker flagged (export refuses nothing)."""

    chapter: int  # from 0, as the spans count
    sentence: int
    text: str
    reasons: tuple[str, ...]

    def to_json(self) -> dict:
        return {
            "chapter": self.chapter,
            "sentence": self.sentence,
            "text": self.text,
            "reasons": [str(r) for r in self.reasons],
        }


@dataclass(frozen=True)
class ExportReport:
    files: tuple[ExportedFile, ...]
    overflows: tuple[CueOverflow, ...] = ()
    warnings: tuple[str, ...] = field(default=())  # sentences, overflows included
    flagged: tuple[FlaggedSentence, ...] = ()  # in reading order

    def audio(self, chapter: int | None = None) -> ExportedFile:
        """The audio file of a chapter, or the one file (chapter None)."""
        return next(f for f in self.files if f.kind == "audio" and f.chapter == chapter)

    def to_json(self) -> dict:
        return {
            "files": [f.to_json() for f in self.files],
            "overflows": [
                {
                    "chapter": o.chapter,
                    "sentences": list(o.sentences),
                    "cue_start": o.cue_start,
                    "slot_end": o.slot_end,
                    "over": o.over,
                    "speed_needed": o.speed_needed if math.isfinite(o.speed_needed) else None,
                }
                for o in self.overflows
            ],
            "warnings": list(self.warnings),
            "flagged": [f.to_json() for f in self.flagged],
        }
