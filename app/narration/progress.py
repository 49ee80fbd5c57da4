"""What a render tells its caller after each sentence: counts per chapter and overall, the
speed measured in this run (audio seconds per wall second) and the time left at that speed."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RenderProgress:
    chapter_id: int
    chapter_index: int
    chapter_done: int  # sentences of the chapter with a chosen take
    chapter_total: int
    done: int  # the same over the chapters being rendered
    total: int
    failed: int  # sentences that failed in this run
    sentence_id: int | None  # the sentence that just ended (None: the render starts)
    audio_seconds: float  # audio made in this run
    wall_seconds: float  # time this run has spent rendering
    eta_seconds: float | None  # None until something was measured

    @property
    def speed(self) -> float | None:
        """Audio seconds made per wall second in this run."""
        return (
            self.audio_seconds / self.wall_seconds
            if self.wall_seconds > 0 and self.audio_seconds > 0
            else None
        )


class Meter:
    """Speed and time left: the audio still to make is estimated from the characters left at
    the seconds per character measured so far."""

    def __init__(self):
        self.audio_seconds = 0.0
        self.chars = 0
        self.wall_seconds = 0.0

    def add(self, chars: int, audio_seconds: float) -> None:
        self.chars += chars
        self.audio_seconds += audio_seconds

    def eta(self, chars_left: int) -> float | None:
        if self.chars <= 0 or self.audio_seconds <= 0 or self.wall_seconds <= 0:
            return None
        audio_left = chars_left * self.audio_seconds / self.chars
        return audio_left / (self.audio_seconds / self.wall_seconds)
