"""Which segment (sentence) the sound card is playing: the segments queued on the current
stream, in the order the output plays them, with their lengths.

The output reports how many samples it has really played (AudioOutput.played_samples); walking
the queued lengths turns that into "now at segment N" and the position inside it. Audio played
at another speed is queued as its time-stretched copy, so its lengths are the output's too.
"""

from __future__ import annotations


class PlayTimeline:
    def __init__(self) -> None:
        self._queued: list[list[int]] = []  # [segment, samples queued], in playing order

    def reset(self) -> None:
        self._queued = []

    def queued(self, segment: int, samples: int) -> None:
        """`samples` more of `segment` went to the output (segments come in reading order)."""
        if self._queued and self._queued[-1][0] == segment:
            self._queued[-1][1] += samples
        else:
            self._queued.append([segment, samples])

    @property
    def total(self) -> int:
        """Samples queued on the output (in the output's own samples)."""
        return sum(count for _segment, count in self._queued)

    def segments(self) -> list[int]:
        return [segment for segment, _count in self._queued]

    def segment_at(self, played: int) -> int | None:
        """The segment that holds output sample `played` (the last one once all is played);
        None when nothing is queued. A segment with no samples yet is never current."""
        at = 0
        last = None
        for segment, count in self._queued:
            if count <= 0:
                continue
            last = segment
            if played < at + count:
                return segment
            at += count
        return last
