"""Where inside a sentence the player may wait: in a pause the speech already has.

The player (buffering.py) waits only where waiting cannot break a word. Between sentences is
one such place; a pause inside a sentence (a comma, a breath, ChatTTS's [uv_break]) is
another: holding it a little longer sounds like a slower reader, not like broken speech. So a
sentence made too slowly to play as it comes need not be made whole before it is heard: its
first clause can play once its pause has arrived.

A pause is a run of quiet 10 ms frames at least MIN_PAUSE_S long, after sound. Quiet is
relative to the sentence's loudest sustained sound so far (SILENCE_DB below it), with an
absolute floor for digital silence. Sustained: the median of five frames, so a click or a pop
(a frame or two) does not raise the level and make the soft speech after it look quiet. The
closure of a stop consonant (p, t, k) is quiet too, but lasts well under MIN_PAUSE_S, so a
wait never lands inside a word. The wait point lies
INTO_PAUSE_S into the pause: the listener has already heard the pause begin.

Incremental: samples are fed as they arrive, a piece at a time, and the finder never
revises a wait point it has given. Lazy: they are judged only when a wait point is asked for,
which the player does only for a sentence it cannot otherwise start or go on with, or one
playing whose rest may not come in time (a piece late, or less than a quarter second queued,
as in the first moments of a sentence started at its second piece), so the judging is spread
over those moments. Saved audio played whole costs nothing here.
"""

from __future__ import annotations

import collections

import numpy as np

FRAME_S = 0.01
SILENCE_DB = -40.0  # quiet: this far below the loudest sustained sound so far
FLOOR = 1e-4  # ... or below this RMS whatever came before (-80 dBFS)
LEVEL_FRAMES = 5  # sustained: the median of this many frames
# Stop closures last about 50-150 ms; a comma's pause 200 ms or more.
MIN_PAUSE_S = 0.25
INTO_PAUSE_S = 0.1


class PauseFinder:
    """Wait points (sample offsets from the sentence's start) found in its samples so far."""

    def __init__(self, sample_rate: int):
        self.frame = max(1, round(sample_rate * FRAME_S))
        self._min_frames = max(1, round(MIN_PAUSE_S / FRAME_S))
        self._into = round(INTO_PAUSE_S * sample_rate)
        self._ratio = 10.0 ** (SILENCE_DB / 20.0)
        self._carry = np.zeros(0, dtype=np.float32)
        self._framed = 0  # samples already judged, in whole frames
        self._peak = 0.0  # the loudest sustained sound's RMS so far
        self._recent: collections.deque = collections.deque(maxlen=LEVEL_FRAMES)
        self._heard = False  # sound came before: quiet from now on may be a pause
        self._quiet_from: int | None = None  # where the current quiet run began (after sound)
        self._quiet_frames = 0
        self._found: list[int] = []
        self._pending: list[np.ndarray] = []

    def feed(self, samples: np.ndarray) -> None:
        self._pending.append(np.asarray(samples, dtype=np.float32).reshape(-1))

    @property
    def waits(self) -> list[int]:
        """Every wait point in what was fed, in order."""
        if self._pending:
            data = np.concatenate([self._carry, *self._pending])
            self._pending = []
            self._judge(data)
        return self._found

    def _judge(self, data: np.ndarray) -> None:
        count = len(data) // self.frame
        self._carry = data[count * self.frame :]
        if not count:
            return
        frames = data[: count * self.frame].reshape(count, self.frame).astype(np.float64)
        loudness = np.sqrt(np.mean(frames * frames, axis=1))
        finite = np.isfinite(loudness)
        for rms, ok in zip(loudness.tolist(), finite.tolist()):
            at = self._framed
            self._framed += self.frame
            if ok:
                self._recent.append(min(rms, 1.0))
                if len(self._recent) == LEVEL_FRAMES:
                    self._peak = max(self._peak, sorted(self._recent)[LEVEL_FRAMES // 2])
            if not ok or rms > max(FLOOR, self._peak * self._ratio):
                # Broken samples (inf, NaN) are never a pause, nor part of the level.
                self._heard = self._heard or ok
                self._quiet_from, self._quiet_frames = None, 0
                continue
            if not self._heard:
                continue  # silence before any sound is not a pause inside speech
            if self._quiet_from is None:
                self._quiet_from = at
            self._quiet_frames += 1
            if self._quiet_frames == self._min_frames:
                self._found.append(self._quiet_from + self._into)

    def last_wait_after(self, offset: int) -> int | None:
        """The furthest wait point past `offset`, if any: the player plays up to it."""
        waits = self.waits
        if waits and waits[-1] > offset:
            return waits[-1]
        return None
