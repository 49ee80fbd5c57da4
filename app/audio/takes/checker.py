"""Check one take: speech presence and coverage, a cut-off ending, babble, holes, voice drift,
clipping and level. Thresholds live in thresholds.py."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from app.audio.takes import speaker, vad
from app.audio.takes.expected import SpeakingRate
from app.audio.takes.findings import Finding, FindingKind, TakeReport, reason
from app.audio.takes.level import clipped_share, dbfs
from app.audio.takes.model_files import VAD_MODEL, TakeModelMissing, say_once
from app.audio.takes.resample import to_model_rate
from app.audio.takes.thresholds import (
    CLIPPED_SHARE,
    CUT_OFF_END_DB,
    CUT_OFF_END_SECONDS,
    CUT_OFF_RATIO,
    LEVEL_SPREAD_DB,
    LITTLE_SPEECH_RATIO,
    LONG_SILENCE_SECONDS,
    NO_SPEECH_SECONDS,
    QUIET_DBFS,
    SPEECH_PROBABILITY,
    TOO_LONG_RATIO,
    VAD_FRAME,
    VAD_SAMPLE_RATE,
    VOICE_SIMILARITY,
)

FRAME_SECONDS = VAD_FRAME / VAD_SAMPLE_RATE


@dataclass(frozen=True)
class Expectation:
    """What the take should be: its text and language (with the rate learnt from earlier takes,
    or a default), or a duration given outright. `reference` is a voice embedding
    (`voice_embedding`) the take's voice should match; `level_dbfs` the other takes' level."""

    text: str | None = None
    language: str = "en"
    rate: SpeakingRate | None = None
    speech_seconds: float | None = None
    reference: np.ndarray | None = None
    level_dbfs: float | None = None

    def expected_speech_seconds(self) -> float | None:
        if self.speech_seconds is not None:
            return self.speech_seconds
        if not self.text:
            return None
        rate = self.rate or SpeakingRate.default(self.language)
        seconds = rate.expected_seconds(self.text)
        return seconds if seconds > 0 else None


@dataclass(frozen=True)
class SpeechFrames:
    speech: np.ndarray  # bool per VAD frame

    @property
    def seconds(self) -> float:
        return float(np.count_nonzero(self.speech)) * FRAME_SECONDS

    def longest_inner_gap(self) -> float:
        idx = np.flatnonzero(self.speech)
        if len(idx) < 2:
            return 0.0
        return float((np.diff(idx) - 1).max()) * FRAME_SECONDS


def speech_frames(audio16k: np.ndarray) -> SpeechFrames:
    return SpeechFrames(vad.speech_probabilities(audio16k) >= SPEECH_PROBABILITY)


def speech_only(audio16k: np.ndarray, frames: SpeechFrames) -> np.ndarray:
    mask = np.repeat(frames.speech, VAD_FRAME)
    return audio16k[: len(mask)][mask[: len(audio16k)]]


def voice_embedding(audio: np.ndarray, sample_rate: int) -> np.ndarray | None:
    """The voice of a reference recording (None where the voice-activity model is missing)."""
    audio16k = to_model_rate(audio, sample_rate)
    try:
        frames = speech_frames(audio16k)
        speech = speech_only(audio16k, frames)
        return speaker.embed_speech(speaker.raise_quiet(speech if len(speech) else audio16k))
    except TakeModelMissing as missing:
        say_once(str(missing))
        return None


@dataclass(frozen=True)
class MeasuredTake:
    """What a take's audio shows before it is held against its text: measured once, so a
    caller can learn a speaking rate from several takes and then judge each."""

    audio16k: np.ndarray
    seconds: float
    clipped_share: float
    frames: SpeechFrames | None  # None: the voice-activity model is missing

    @property
    def speech_seconds(self) -> float:
        return self.frames.seconds if self.frames is not None else 0.0


def measure_take(audio: np.ndarray, sample_rate: int) -> MeasuredTake:
    """Measure a take (float32 mono at its own sample rate)."""
    audio = np.asarray(audio, dtype=np.float32)
    audio16k = to_model_rate(audio, sample_rate)
    try:
        frames: SpeechFrames | None = speech_frames(audio16k)
    except TakeModelMissing:
        frames = None
    seconds = len(audio) / sample_rate if sample_rate > 0 else 0.0
    return MeasuredTake(audio16k, seconds, clipped_share(audio), frames)


def check_take(audio: np.ndarray, sample_rate: int, expect: Expectation) -> TakeReport:
    """Judge one take (float32 mono at its own sample rate) against what it should be."""
    return judge_take(measure_take(audio, sample_rate), expect)


def judge_take(take: MeasuredTake, expect: Expectation) -> TakeReport:
    """The findings on a measured take, against what it should be."""
    seconds = take.seconds
    expected = expect.expected_speech_seconds()
    audio16k = take.audio16k
    findings: list[Finding] = []

    def add(kind: FindingKind, value: float, limit: float) -> None:
        findings.append(Finding(kind, value, limit, reason(kind, value, limit)))

    if take.clipped_share > CLIPPED_SHARE:
        add(FindingKind.CLIPPING, take.clipped_share, CLIPPED_SHARE)
    frames = take.frames
    if frames is None:
        return TakeReport(
            tuple(findings), seconds, 0.0, expected, checked=False, note=say_once(VAD_MODEL[0])
        )
    speech_seconds = frames.seconds
    measures: dict[str, float] = {}
    if speech_seconds < NO_SPEECH_SECONDS:
        add(FindingKind.NO_SPEECH, speech_seconds, NO_SPEECH_SECONDS)
        return TakeReport(tuple(findings), seconds, speech_seconds, expected, measures=measures)

    if expected:
        ratio = speech_seconds / expected
        measures["speech_ratio"] = ratio
        if ratio < LITTLE_SPEECH_RATIO:
            add(FindingKind.LITTLE_SPEECH, ratio, LITTLE_SPEECH_RATIO)
        elif ratio < CUT_OFF_RATIO:
            add(FindingKind.CUT_OFF, ratio, CUT_OFF_RATIO)
        elif ratio > TOO_LONG_RATIO:
            add(FindingKind.TOO_LONG, ratio, TOO_LONG_RATIO)
    gap = frames.longest_inner_gap()
    measures["longest_gap_seconds"] = gap
    if gap > LONG_SILENCE_SECONDS:
        add(FindingKind.LONG_SILENCE, gap, LONG_SILENCE_SECONDS)

    speech = speech_only(audio16k, frames)
    level = dbfs(speech)
    end = dbfs(audio16k[-int(CUT_OFF_END_SECONDS * VAD_SAMPLE_RATE) :])
    if level is not None and end is not None:
        # A take that stops mid-word ends as loud as its speech; a whole one ends in silence.
        measures["end_below_speech_db"] = level - end
        if level - end < CUT_OFF_END_DB and FindingKind.CUT_OFF not in {f.kind for f in findings}:
            add(FindingKind.CUT_OFF, level - end, CUT_OFF_END_DB)
    if level is not None:
        if level < QUIET_DBFS:
            add(FindingKind.LEVEL, level, QUIET_DBFS)
        elif expect.level_dbfs is not None and abs(level - expect.level_dbfs) > LEVEL_SPREAD_DB:
            add(FindingKind.LEVEL, level, expect.level_dbfs)

    similarity = None
    if expect.reference is not None:
        embedding = speaker.embed_speech(speaker.raise_quiet(speech))
        similarity = speaker.similarity(embedding, expect.reference)
        if similarity < VOICE_SIMILARITY:
            add(FindingKind.VOICE_DRIFT, similarity, VOICE_SIMILARITY)
    return TakeReport(
        tuple(findings),
        seconds,
        speech_seconds,
        expected,
        voice_similarity=similarity,
        speech_dbfs=level,
        measures=measures,
    )
