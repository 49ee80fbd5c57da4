"""Plain data that goes into and comes out of the synthesizer (and across Qt signals)."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from app.core.errors import InputTextError, ParameterError
from app.i18n import _

# ChatTTS-ui's default voice seed: on the official weights it is the same voice there.
DEFAULT_SEED = 2222
# Sentence seeds use the low 32 bits (decode/batch.py), so larger seeds would repeat voices.
SEED_MAX = 2**32 - 1
# The levels ChatTTS's prompt tokens take ([speed_N], [oral_N], [laugh_N], [break_N]), inclusive;
# the CLI's options and the window's spin boxes offer the same.
SPEED_RANGE = (0, 9)
ORAL_RANGE = (0, 9)
LAUGH_RANGE = (0, 2)
BREAK_RANGE = (0, 7)


def check_number(option: str, value, low, high=None, low_open: bool = False, integer: bool = False):
    """`value` if it is a number within its range, else ParameterError naming `option`."""
    ok = isinstance(value, numbers.Integral if integer else numbers.Real) and not isinstance(
        value, bool
    )
    ok = ok and (integer or math.isfinite(value))
    ok = ok and (value > low if low_open else value >= low) and (high is None or value <= high)
    if not ok:
        raise ParameterError(option, low, high, low_open)
    return value


@dataclass
class SamplingParams:
    """Audio-token sampling, with ChatTTS's defaults."""

    temperature: float = 0.3
    top_p: float = 0.7
    top_k: int = 20
    repetition_penalty: float = 1.05
    max_new_tokens: int = 2048
    min_new_tokens: int = 0  # the end token is barred before this many (benchmarks)

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        """ParameterError (a sentence naming the option) unless every value is usable."""
        check_number("temperature", self.temperature, 0, None, low_open=True)
        check_number("top-p", self.top_p, 0, 1, low_open=True)
        check_number("top-k", self.top_k, 1, integer=True)
        check_number("repetition penalty", self.repetition_penalty, 0, None, low_open=True)
        check_number("max-tokens", self.max_new_tokens, 1, integer=True)
        check_number("min-tokens", self.min_new_tokens, 0, self.max_new_tokens, integer=True)


@dataclass
class SynthesisRequest:
    text: str
    seed: int = DEFAULT_SEED  # picks the voice (unless `speaker` is given) and seeds sampling
    speaker: str | None = None  # base16384 speaker string; overrides the seed's voice
    sampling: SamplingParams = field(default_factory=SamplingParams)
    refine_text: bool = True  # let the model add pauses and fillers first
    speed: int = 5  # [speed_N], SPEED_RANGE
    oral: int | None = None  # [oral_N] for refinement, ORAL_RANGE
    laugh: int | None = None  # [laugh_N] for refinement, LAUGH_RANGE
    break_level: int | None = None  # [break_N] for refinement, BREAK_RANGE
    voice_lock: bool = True  # later sentences copy the first one's voice
    reference: str | None = None  # audio codes of a reference recording (overrides the lock)
    reference_text: str | None = None  # the transcript of that recording

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        """ParameterError unless every value is in range (the window also changes fields later)."""
        for name in ("text", "speaker", "reference", "reference_text"):
            value = getattr(self, name)
            if not (isinstance(value, str) or (value is None and name != "text")):
                raise InputTextError(
                    _("The request's {name} is not text; type it again.").format(name=name)
                )
        if not isinstance(self.sampling, SamplingParams):
            raise ParameterError("sampling", 0, None)
        self.sampling.validate()
        check_number("seed", self.seed, 0, SEED_MAX, integer=True)
        check_number("speed", self.speed, *SPEED_RANGE, integer=True)
        for option, value, (low, high) in (
            ("oral", self.oral, ORAL_RANGE),
            ("laugh", self.laugh, LAUGH_RANGE),
            ("break", self.break_level, BREAK_RANGE),
        ):
            if value is not None:
                check_number(option, value, low, high, integer=True)

    def code_prompt(self) -> str:
        return f"[speed_{_clamp(self.speed, *SPEED_RANGE)}]"

    def refine_prompt(self) -> str:
        parts = []
        if self.oral is not None:
            parts.append(f"[oral_{_clamp(self.oral, *ORAL_RANGE)}]")
        if self.laugh is not None:
            parts.append(f"[laugh_{_clamp(self.laugh, *LAUGH_RANGE)}]")
        if self.break_level is not None:
            parts.append(f"[break_{_clamp(self.break_level, *BREAK_RANGE)}]")
        return "".join(parts)


def _clamp(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, int(value)))


@dataclass(frozen=True)
class SegmentMark:
    """Where one segment (sentence) lies in the audio and, when it could be found there, in the
    text the user typed: the player says "now at segment N" and the window highlights it."""

    start: int  # its first sample
    end: int  # one past its last sample
    text_start: int | None = None  # its characters in the user's text (None: not mapped)
    text_end: int | None = None

    @property
    def span(self) -> tuple[int, int] | None:
        if self.text_start is None or self.text_end is None:
            return None
        return (self.text_start, self.text_end)


def segment_at(marks: list[SegmentMark], sample: int) -> int | None:
    """The index of the segment that holds `sample` (the last one at or past the end), or None."""
    if not marks:
        return None
    for i, mark in enumerate(marks):
        if sample < mark.end:
            return i
    return len(marks) - 1


@dataclass
class AudioChunk:
    """Audio of a segment, in reading order: the whole segment, or one streamed piece of it."""

    index: int
    total: int
    samples: np.ndarray  # float32, mono
    sample_rate: int
    final: bool = True  # the segment's last piece
    vocoder_s: float = 0.0  # seconds the vocoder took to make it (0: not known), for the player
    span: tuple[int, int] | None = None  # the segment's characters in the user's text


@dataclass
class SynthesisResult:
    audio: np.ndarray  # float32, mono, all segments joined
    sample_rate: int
    device: str
    speaker: str
    seed: int
    segments: int
    synth_seconds: float
    warnings: list[str] = field(default_factory=list)
    spoken_text: str = ""  # what the model was given, after normalization
    decode: str = ""  # what decoded it: "upstream" or our loop, e.g. "jit-fp32"
    marks: list[SegmentMark] = field(default_factory=list)  # each segment's samples and text

    @property
    def duration(self) -> float:
        return len(self.audio) / float(self.sample_rate)

    @property
    def realtime_factor(self) -> float | None:
        return self.synth_seconds / self.duration if self.duration else None
