"""A chapter's sentences laid out in time: the audio, and where each sentence really is in it.

Positions are whole samples at the output rate, so subtitles and chapter marks say exactly
where the sound is. Plain chapters put a pause between sentences. Timed voice-over (sentences
with `start`, from subtitles) puts each cue at its start; a cue longer than its slot pushes the
next one later and is reported with by how much, never overlapped or cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from app.i18n import _
from app.narration.export.resample import resample
from app.narration.rendered import RenderedChapter, RenderedSentence


@dataclass(frozen=True)
class Span:
    """One sentence in the output: samples [start, end) of its file."""

    chapter: int
    sentence: int
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class CueOverflow:
    """A timed cue whose speech does not fit before its slot ends (its end or the next cue)."""

    chapter: int
    chapter_title: str
    sentences: tuple[int, ...]  # the cue's sentences, indexes in the chapter
    text: str
    cue_start: float  # seconds in the chapter, as the subtitles asked
    placed_at: float  # where it starts (later than cue_start if the one before overflowed)
    slot_end: float
    spoken: float  # seconds the cue's speech (with its inner pauses) lasts
    over: float  # seconds past slot_end

    @property
    def speed_needed(self) -> float:
        """How much faster the cue would have to be spoken to fit its slot (e.g. 1.25)."""
        slot = self.slot_end - self.cue_start
        return self.spoken / slot if slot > 0 else float("inf")

    def message(self) -> str:
        return _(
            "The cue at {start} (\u201c{text}\u201d) runs {over:.2f} s past its slot; "
            "speak it faster or shorten it."
        ).format(start=_clock(self.cue_start), text=_shorten(self.text), over=self.over)


@dataclass(frozen=True)
class ChapterTimeline:
    title: str
    audio: np.ndarray  # float32 mono at sample_rate
    sample_rate: int
    spans: tuple[Span, ...]
    overflows: tuple[CueOverflow, ...]

    @property
    def duration(self) -> float:
        return len(self.audio) / self.sample_rate


def _clock(seconds: float) -> str:
    ms = int(round(seconds * 1000))
    return f"{ms // 3_600_000:d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def _shorten(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _samples(sentence: RenderedSentence, rate_in: int, rate_out: int) -> np.ndarray:
    audio = np.nan_to_num(np.asarray(sentence.audio, dtype=np.float32).reshape(-1))
    return resample(audio, rate_in, rate_out)


# A cue time past this is a damaged record, not a film: it would ask for days of silence.
MAX_CUE_SECONDS = 24 * 3600.0


def _clean(sentence: RenderedSentence) -> RenderedSentence:
    """Times as a record may hold them (NaN, negative, end before start) made safe: a start
    that cannot be is no start (the sentence follows the one before), a bad end no end."""
    start, end = sentence.start, sentence.end
    if (
        not isinstance(start, (int, float))
        or not math.isfinite(start)
        or not 0 <= start <= MAX_CUE_SECONDS
    ):
        start = None
    if start is None or not isinstance(end, (int, float)) or not math.isfinite(end) or end <= start:
        end = None
    if (start, end) == (sentence.start, sentence.end):
        return sentence
    return RenderedSentence(sentence.text, sentence.audio, start, end)


def _cues(sentences: tuple[RenderedSentence, ...]) -> list[list[int]]:
    """Sentence indexes grouped by cue: a timed sentence opens a cue unless it repeats the
    previous one's start and end (one cue's text split into sentences); untimed ones join it."""
    groups: list[list[int]] = []
    previous: tuple | None = None
    for i, s in enumerate(sentences):
        timing = (s.start, s.end)
        if s.start is not None and (timing != previous or not groups):
            groups.append([i])
        elif groups:
            groups[-1].append(i)
        else:
            groups.append([i])
        if s.start is not None:
            previous = timing
    return groups


def is_timed(chapter: RenderedChapter) -> bool:
    return any(_clean(s).start is not None for s in chapter.sentences)


def assemble_chapter(
    chapter: RenderedChapter, sentence_pause: float, sample_rate: int, index: int = 0
) -> ChapterTimeline:
    if is_timed(chapter):
        return _assemble_timed(chapter, sentence_pause, sample_rate, index)
    pause = int(round(sentence_pause * sample_rate))
    pieces: list[np.ndarray] = []
    spans: list[Span] = []
    at = 0
    for i, sentence in enumerate(chapter.sentences):
        if i:
            pieces.append(np.zeros(pause, np.float32))
            at += pause
        audio = _samples(sentence, chapter.sample_rate, sample_rate)
        pieces.append(audio)
        spans.append(Span(index, i, sentence.text, at, at + len(audio)))
        at += len(audio)
    audio = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
    return ChapterTimeline(chapter.title, audio, sample_rate, tuple(spans), ())


def _assemble_timed(
    chapter: RenderedChapter, sentence_pause: float, rate: int, index: int
) -> ChapterTimeline:
    sentences = tuple(_clean(s) for s in chapter.sentences)
    pause = int(round(sentence_pause * rate))
    groups = _cues(sentences)
    audio_of = [_samples(s, chapter.sample_rate, rate) for s in sentences]
    starts = [sentences[g[0]].start for g in groups]
    placed: list[tuple[int, np.ndarray]] = []
    spans: list[Span] = []
    overflows: list[CueOverflow] = []
    cursor = 0  # the first sample not yet taken by a cue
    for k, group in enumerate(groups):
        cue = sentences[group[0]]
        wanted = int(round(cue.start * rate)) if cue.start is not None else cursor
        at = max(wanted, cursor)
        first = at
        for j, i in enumerate(group):
            if j:
                at += pause
            placed.append((at, audio_of[i]))
            spans.append(Span(index, i, sentences[i].text, at, at + len(audio_of[i])))
            at += len(audio_of[i])
        cursor = at
        slot_end = _slot_end(cue, starts[k + 1 :])
        if cue.start is not None and slot_end is not None and at > int(round(slot_end * rate)):
            overflows.append(
                CueOverflow(
                    chapter=index,
                    chapter_title=chapter.title,
                    sentences=tuple(group),
                    text=" ".join(sentences[i].text for i in group),
                    cue_start=float(cue.start),
                    placed_at=first / rate,
                    slot_end=float(slot_end),
                    spoken=(at - first) / rate,
                    over=(at - round(slot_end * rate)) / rate,
                )
            )
    audio = np.zeros(cursor, np.float32)
    for at, piece in placed:
        audio[at : at + len(piece)] = piece
    return ChapterTimeline(chapter.title, audio, rate, tuple(spans), tuple(overflows))


def _slot_end(cue: RenderedSentence, later_starts: list[float | None]) -> float | None:
    """A cue may speak until its own end and never into the next cue."""
    limits = [
        t
        for t in (cue.end, next((s for s in later_starts if s is not None), None))
        if t is not None
    ]
    return min(limits) if limits else None


@dataclass(frozen=True)
class Joined:
    audio: np.ndarray
    sample_rate: int
    chapter_starts: tuple[int, ...]  # samples
    spans: tuple[Span, ...]
    overflows: tuple[CueOverflow, ...]


def join_chapters(
    timelines: list[ChapterTimeline], chapter_pause: float, sample_rate: int
) -> Joined:
    """One file: the chapters in order with a pause between them; spans move with their chapter."""
    pause = int(round(chapter_pause * sample_rate))
    pieces: list[np.ndarray] = []
    starts: list[int] = []
    spans: list[Span] = []
    at = 0
    for n, timeline in enumerate(timelines):
        if n:
            pieces.append(np.zeros(pause, np.float32))
            at += pause
        starts.append(at)
        pieces.append(timeline.audio)
        spans.extend(
            Span(s.chapter, s.sentence, s.text, s.start + at, s.end + at) for s in timeline.spans
        )
        at += len(timeline.audio)
    audio = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
    overflows = tuple(o for t in timelines for o in t.overflows)
    return Joined(audio, sample_rate, tuple(starts), tuple(spans), overflows)
