"""What is heard, sentence by sentence: the read-along and the transport (pause, next and
previous sentence, play from a sentence, the speed of saved audio).

It follows the sound card's real position (AudioOutput.played_samples), not the decoder's:
a poll turns it into "now at segment N" through the segments queued on the output
(PlayTimeline) and says so when it changes. A skip starts the output again from the
segment's first sample: from the pieces received so far while a request still streams,
from the whole result (or a saved entry) once complete.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from app.audio import SAMPLE_RATE, PlayTimeline, time_stretch
from app.core import SegmentMark

# Often enough that the highlight moves with the voice, rarely enough to cost nothing.
POLL_MS = 40


class Reading(QObject):
    at = Signal(int, object)  # the segment heard now (-1: none) and its span in the text shown
    pausedChanged = Signal(bool)

    def __init__(self, parent, output):
        super().__init__(parent)
        self.output = output
        self.timeline = PlayTimeline()
        self.speed = 1.0
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self.poll)
        self._current = -1
        self._paused = False
        self._clear()

    def _clear(self) -> None:
        self.timeline.reset()
        self._rate = SAMPLE_RATE
        self._pieces: dict[int, list[tuple[np.ndarray, bool, float]]] = {}
        self._spans: dict[int, tuple[int, int] | None] = {}
        self._total = 0  # segments of what plays
        self._floor = 0  # a skip's segment: earlier pieces still arriving are not queued
        self._streaming = False
        self._saved: tuple[np.ndarray, int, list[SegmentMark]] | None = None
        self._offset = 0  # where the request's text starts in the text shown
        self.text: str | None = None  # the text the spans are in (None: not a text's audio)

    def reset(self) -> None:
        """Nothing plays any more (stopped, failed, another output)."""
        self._timer.stop()
        self._clear()
        self._set_paused(False)
        self._tell(-1)

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def active(self) -> bool:
        return self._timer.isActive()

    @property
    def current(self) -> int:
        return self._current

    def span(self, segment: int) -> tuple[int, int] | None:
        """Segment `segment`'s characters in the text shown, or None."""
        span = self._spans.get(segment)
        return None if span is None else (span[0] + self._offset, span[1] + self._offset)

    def spans(self) -> dict[int, tuple[int, int]]:
        return {i: s for i in self._spans if (s := self.span(i)) is not None}

    # -- a request streaming ---------------------------------------------------------------
    def begin_stream(self, rate: int, text_offset: int = 0, text: str | None = None) -> None:
        self._timer.stop()
        self._clear()
        self._set_paused(False)
        self._tell(-1)
        self._streaming = True
        self._rate = rate
        self._offset = text_offset
        self.text = text
        self._timer.start()

    def stream_chunk(self, chunk) -> None:
        self._total = max(self._total, chunk.total)
        self._pieces.setdefault(chunk.index, []).append(
            (chunk.samples, chunk.final, chunk.vocoder_s)
        )
        self._spans[chunk.index] = chunk.span
        if chunk.index >= self._floor:
            self._queue(chunk.samples, chunk.index, chunk.final, chunk.vocoder_s)

    def stream_done(self, result) -> None:
        """The request is complete: later skips play from its whole audio."""
        self._streaming = False
        self._pieces = {}
        marks = list(result.marks or [])
        if _fits(marks, result.audio):
            self._saved = (result.audio, result.sample_rate, marks)
            self._total = len(marks)

    # -- saved audio -----------------------------------------------------------------------
    def play_saved(
        self, audio, rate: int, marks: list[SegmentMark], segment: int = 0, text: str | None = None
    ) -> None:
        """Play `audio` from `segment` of its marks (marks that do not fit it are ignored)."""
        self._timer.stop()
        self._clear()
        self._set_paused(False)
        marks = list(marks) if _fits(marks, audio) else []
        self._saved = (audio, rate, marks)
        self._rate = rate
        self.text = text
        self._total = len(marks)
        self._spans = {i: m.span for i, m in enumerate(marks)}
        self._start_saved(segment)

    def _start_saved(self, segment: int) -> None:
        assert self._saved is not None
        audio, rate, marks = self._saved
        paused = self._paused
        self.output.start(rate)
        self.timeline.reset()
        # Whole and final: the buffer plays each at once, never looking for pauses to wait in.
        pieces = (
            [(i, audio[m.start : m.end]) for i, m in enumerate(marks) if i >= segment]
            if marks
            else [(0, audio)]
        )
        for index, samples in pieces:
            if self.speed != 1.0 and len(samples):
                samples = time_stretch(samples, self.speed)
            self._queue(samples, index, True)
        self.output.end_stream()
        if paused:
            self.output.pause()
        self._timer.start()
        self.poll()

    @property
    def saved_audio(self):
        """The saved audio that plays (None: a request's stream, or nothing)."""
        return None if self._saved is None or self._streaming else self._saved[0]

    @property
    def offset(self) -> int:
        return self._offset

    def set_speed(self, speed: float) -> None:
        """The speed of saved audio from now on; what plays of it goes on at the new speed."""
        self.speed = float(speed)
        if self.active and not self._streaming and self._saved is not None and self._current >= 0:
            self._start_saved(self._current)

    # -- transport -------------------------------------------------------------------------
    def toggle_pause(self) -> bool:
        """Pause what plays, or go on; False when nothing plays."""
        if not self.active:
            return False
        if self._paused:
            self.output.resume()
        else:
            self.output.pause()
        self._set_paused(not self._paused)
        return True

    def skip(self, delta: int) -> bool:
        """To the sentence `delta` after (before) the one heard; False when nothing plays."""
        if not self.active or self._current < 0 or self._total == 0:
            return False
        return self.jump(max(0, min(self._current + delta, self._total - 1)))

    def jump(self, segment: int) -> bool:
        """Play again from `segment`; False when there is no such segment to play."""
        if not 0 <= segment < max(self._total, 1):
            return False
        if self._streaming:
            paused = self._paused
            self.output.start(self._rate)
            self.timeline.reset()
            self._floor = segment
            for index in sorted(self._pieces):
                if index >= segment:
                    for samples, final, vocoder_s in self._pieces[index]:
                        self._queue(samples, index, final, vocoder_s)
            if paused:
                self.output.pause()
            self._timer.start()
            self.poll()
            return True
        if self._saved is not None and self._saved[2]:
            self._start_saved(segment)
            return True
        return False

    # -- following the sound card ------------------------------------------------------------
    def poll(self) -> int:
        """The segment the sound card plays now (said when it changes); -1 once all is heard."""
        played = self.output.played_samples()
        segment = self.timeline.segment_at(played)
        if segment is None and self._streaming and self._floor > 0:
            segment = self._floor  # skipped ahead of what has been decoded: it comes next
        over = not self._streaming and (
            self.timeline.total == 0
            or bool(self.output.problem)
            or (played >= self.timeline.total and not self.output.is_active())
        )
        if over:
            self._timer.stop()
            self._set_paused(False)
            segment = None
        self._tell(-1 if segment is None else segment)
        return self._current

    def _queue(self, samples, index: int, final: bool, vocoder_s: float = 0.0) -> None:
        self.output.enqueue(samples, index, final, vocoder_s)
        self.timeline.queued(index, len(samples))

    def _tell(self, segment: int) -> None:
        if segment != self._current:
            self._current = segment
            self.at.emit(segment, self.span(segment) if segment >= 0 else None)

    def _set_paused(self, paused: bool) -> None:
        if paused != self._paused:
            self._paused = paused
            self.pausedChanged.emit(paused)


def _fits(marks: list[SegmentMark], audio) -> bool:
    """Marks that cover `audio` exactly, each after the one before."""
    if not marks or marks[0].start != 0 or marks[-1].end != len(audio):
        return False
    return all(a.end == b.start for a, b in zip(marks, marks[1:]))
