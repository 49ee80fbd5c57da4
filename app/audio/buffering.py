"""Adaptive buffering between the synthesizer and the speaker: speech never breaks up inside
a word.

Audio arrives a piece at a time, in reading order, tagged with its segment (sentence) and
whether it is that segment's last piece. The buffer measures how fast audio is being made
(seconds of audio per second of wall time) and starts a segment only when what is queued plus
what will be made in time covers it:

- made faster than real time: start once the queue holds more than the time the next pieces
  take to arrive (with a safety margin on the measured rate; a piece may say how long the
  producer's vocoder took for it, which the rule counts apart from its tokens); a segment
  that started but whose next pieces then come later than its rate said plays on only to the
  furthest pause it has, and decides again there;
- made slower than real time: a segment's length is not known before its last piece, and no
  amount of queued audio is provably enough for a sentence of unknown length, so the segment
  plays only as far as audio has arrived to a pause in its speech (pauses.py), or whole once
  complete. The listener hears clauses and sentences with pauses a little longer than the
  reader made them, rather than words broken every fraction of a second.

Waiting happens only between segments or in a pause; the state (IDLE, BUFFERING, PLAYING) is
reported to a listener so the window can say "buffering" while it waits. No Qt here: the clock
is passed in, so tests drive it in simulated time.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from app.audio.pauses import PauseFinder
from app.audio.piece_grid import DEFAULT_MAX_PIECE, SAMPLES_PER_TOKEN, piece_size

# Act as if production were this fraction of the rate the segment's first pieces showed:
# later pieces are larger and take longer to arrive, so a start on the measured rate alone
# runs dry mid-sentence. On our token grid the player knows the pieces to come, so
# GRID_RATE_SAFETY covers only how the machine's speed wavers within a sentence (its tokens
# and its vocoder calls); a segment starts when either rule allows, as neither alone runs dry.
# Held by tests/engine/test_playback_buffering.py and test_playback_vocoder_cost.py;
# figures: docs/design/constants.md#rate_safety-and-grid_rate_safety
RATE_SAFETY = 0.72
GRID_RATE_SAFETY = 0.9
MIN_LEAD_SECONDS = 0.25  # queued audio kept ahead of the speaker even on a fast producer
PIECES_AHEAD = 2.0  # ... and at least the time this many typical pieces take to arrive
# The grid rule's rate is the lower of the segment's since its first piece and over its last
# few arrivals (a machine that slows mid-sentence shows it there first).
RECENT_PIECES = 3
# A streamed piece of n tokens costs the vocoder about (n + this) times a fixed amount: each
# call also decodes context, lookahead and provisional frames and has fixed work. Chosen to
# predict no less than the profiled calls (tests/engine/test_playback_vocoder_cost.py::
# test_the_call_model_never_predicts_less_than_the_measured_calls); figures:
# docs/design/constants.md#vocoder_call_tokens
VOCODER_CALL_TOKENS = 48


class BufferState(Enum):
    IDLE = "idle"  # nothing to play (not started, or the stream ended)
    BUFFERING = "buffering"  # waiting, at a sentence boundary, for enough audio
    PLAYING = "playing"


@dataclass
class _Segment:
    index: int
    pieces: collections.deque = field(default_factory=collections.deque)
    queued: int = 0  # samples received and not yet played
    received: int = 0
    complete: bool = False
    started: bool = False
    played: int = 0
    # How far the speaker may play without deciding again: None, to the end; else a wait
    # point in a pause (started before it was known the rest would come in time).
    hold: int | None = None
    pauses: PauseFinder | None = None  # where it may stop (None: nowhere, as in some tests)
    # When its own pieces came, as (time, samples received by then, vocoder seconds reported by
    # then): the grid rule's rate is the segment's, not the stream's (the next sentence of a
    # paragraph may be made in a larger batch, more slowly). `recent` ends with the last arrival.
    first: tuple[float, int, float] | None = None
    recent: collections.deque = field(
        default_factory=lambda: collections.deque(maxlen=RECENT_PIECES + 1)
    )

    @property
    def last_arrival(self) -> float:
        return self.recent[-1][0]

    @property
    def last_call(self) -> tuple[float, float] | None:
        """The last piece's vocoder call, (its tokens, those seconds); None when it reported none."""
        if len(self.recent) < 2:
            return None
        (_, before, vocoded_before), (_, received, vocoded) = self.recent[-2], self.recent[-1]
        seconds = vocoded - vocoded_before
        return ((received - before) / SAMPLES_PER_TOKEN, seconds) if seconds > 0 else None


class SegmentBuffer:
    """Thread-safe: `push`/`end` from the producer's thread, `pull` from the audio callback."""

    def __init__(
        self,
        sample_rate: int,
        clock: Callable[[], float],
        on_state: Callable[[BufferState], None] | None = None,
    ):
        self.sample_rate = sample_rate
        self._clock = clock
        self._on_state = on_state
        self._lock = threading.Lock()
        self._segments: collections.deque[_Segment] = collections.deque()
        self._ended = False
        self._first_arrival: float | None = None
        self._produced_after_first = 0  # samples that arrived after the first piece
        self._piece_sizes: collections.deque[int] = collections.deque(maxlen=16)
        self._state = BufferState.IDLE
        self.gaps_inside = 0  # times the speaker ran dry inside a segment
        self.played_total = 0  # samples of audio handed to the speaker (silence not counted)
        self._dry = False
        self.first_sound_at: float | None = None

    # -- producer side ---------------------------------------------------------------
    def push(self, samples: np.ndarray, segment: int, final: bool, vocoder_s: float = 0.0) -> None:
        """`vocoder_s`: how long the producer's vocoder took to make this piece from its tokens
        (0: not known), so that the grid rule can tell token time from per-piece time."""
        samples = np.asarray(samples, dtype=np.float32).reshape(-1)
        vocoder_s = max(0.0, float(vocoder_s)) if np.isfinite(vocoder_s) else 0.0
        now = self._clock()
        with self._lock:
            if self._first_arrival is None:
                self._first_arrival = now
            else:
                self._produced_after_first += len(samples)
            if len(samples):
                self._piece_sizes.append(len(samples))
            seg = self._segments[-1] if self._segments else None
            if seg is None or seg.index != segment or seg.complete:
                seg = _Segment(segment, pauses=PauseFinder(self.sample_rate))
                self._segments.append(seg)
            if len(samples):
                before = seg.recent[-1][2] if seg.recent else 0.0
                seg.recent.append((now, seg.received + len(samples), before + vocoder_s))
                seg.first = seg.first or seg.recent[-1]
                seg.pieces.append(samples)
                if seg.pauses is not None:
                    seg.pauses.feed(samples)
                seg.queued += len(samples)
                seg.received += len(samples)
            seg.complete = seg.complete or final
            notify = self._decide_state_locked(now) if self._state is not BufferState.IDLE else None
        self._notify(notify)

    def end(self) -> None:
        """No more audio: whatever is queued is complete."""
        with self._lock:
            self._ended = True
            for seg in self._segments:
                seg.complete = True

    # -- speaker side ----------------------------------------------------------------
    def production_rate(self, now: float | None = None) -> float | None:
        """Seconds of audio made per second since the first piece (None before it can be told);
        it falls while nothing arrives, so a stalled producer is seen as slow."""
        with self._lock:
            return self._rate_locked(self._clock() if now is None else now)

    def _rate_locked(self, now: float) -> float | None:
        if self._first_arrival is None or self._produced_after_first == 0:
            return None
        elapsed = now - self._first_arrival
        if elapsed <= 0:
            return None
        return self._produced_after_first / self.sample_rate / elapsed

    def _limit_locked(self, seg: _Segment, now: float) -> float:
        """How far into the segment (samples) the speaker may play now: to the end (inf) when
        the rest will come in time, else to the furthest wait point that has arrived; no further
        than it has played when neither holds (it waits). A segment playing to its end whose
        next pieces no longer look like coming in time plays on only to the furthest pause it
        has, and decides again there."""
        if seg.started and (seg.hold is None or seg.played < seg.hold):
            if seg.hold is None and self._falling_behind_locked(seg, now):
                wait = seg.pauses.last_wait_after(seg.played) if seg.pauses is not None else None
                if wait is not None:
                    return float(wait)
            return float("inf") if seg.hold is None else float(seg.hold)
        if self._may_start_locked(seg, now):
            return float("inf")
        wait = seg.pauses.last_wait_after(seg.played) if seg.pauses is not None else None
        return float(wait) if wait is not None else float(seg.played)

    def _may_start_locked(self, seg: _Segment, now: float) -> bool:
        if seg.complete or (self._on_grid(seg) and self._grid_allows(seg, now)):
            return True
        rate = self._rate_locked(now)
        if rate is None:
            return False
        rate *= RATE_SAFETY
        if rate < 1.0:
            return False  # see the module's docstring
        piece = (
            float(np.median(self._piece_sizes)) if self._piece_sizes else 0.0
        ) / self.sample_rate
        lead = max(MIN_LEAD_SECONDS, PIECES_AHEAD * piece / rate)
        return seg.queued / self.sample_rate >= lead

    def _falling_behind_locked(self, seg: _Segment, now: float) -> bool:
        """Whether a segment that started to its end should play on only to the furthest pause
        it has and decide again there: the grid rule no longer holds even without its margin
        (less than MIN_LEAD_SECONDS queued, the next piece late, or one of the next predicted
        to come after the speaker needs it). The margin covers how speed wavers within a
        sentence; this covers what it cannot (another program taking the CPU, sentences
        joining the batch), for speech that has pauses to wait in. A hold reached while the
        rest is in time costs nothing, the speaker goes on; one reached with less than
        MIN_LEAD_SECONDS queued waits in that pause until there is. It holds on a short lead
        too, not only on a late piece: that keeps more words whole when the machine slows
        (tests/engine/test_playback_pauses.py::
        test_a_machine_that_slows_after_the_start_waits_in_a_pause_it_has; figures:
        docs/design/constants.md#holding-in-a-pause)."""
        return (
            not seg.complete
            and seg.pauses is not None
            and self._on_grid(seg)
            and not self._grid_allows(seg, now, margin=1.0)
        )

    @staticmethod
    def _on_grid(seg: _Segment) -> bool:
        """Whether what the segment received ends where a piece of our token grid ends (several
        pieces may come at once)."""
        if seg.received % SAMPLES_PER_TOKEN:
            return False
        sent, end = seg.received // SAMPLES_PER_TOKEN, 0
        while end < sent:
            end += piece_size(end)
        return end == sent

    def _grid_allows(self, seg: _Segment, now: float, margin: float = GRID_RATE_SAFETY) -> bool:
        """Starting now, each of the grid's next pieces arrives before the speaker needs it, its
        tokens made at the rate the segment's own showed and its vocoder call costing what the
        last one did for its size (both slowed by `margin`), and the next is not already late:
        a next piece later than predicted means the producer slowed."""
        rate = self._segment_rate(seg)
        if rate is None or seg.first is None or seg.queued / self.sample_rate < MIN_LEAD_SECONDS:
            return False
        # Pieces that came slower than real time, nothing taken off, do not start on the grid:
        # that also keeps a report that overstates the vocoder's time from starting a slow
        # producer (the time it takes off the tokens comes back smaller, scaled by size).
        last, received, _ = seg.recent[-1]
        then, before, _ = seg.first
        if (received - before) / self.sample_rate < last - then:
            return False
        making = self._making_time(seg, rate, margin)
        # Past the largest pieces the lead must not shrink; the loop below stops there.
        if making(DEFAULT_MAX_PIECE) > DEFAULT_MAX_PIECE * SAMPLES_PER_TOKEN / self.sample_rate:
            return False
        sent = seg.received // SAMPLES_PER_TOKEN
        return now <= seg.last_arrival + making(piece_size(sent)) and self._pieces_in_time(
            seg, now, making
        )

    def _segment_rate(self, seg: _Segment) -> float | None:
        """Seconds of audio per second of token making the segment's own pieces showed, up to
        the last: the lower of since its first piece and over its last RECENT_PIECES arrivals
        (None before two arrivals).
        - Its own: in a paragraph the next sentence is made beside others, in a larger batch,
          so the stream's rate (the first sentence's, made alone) overstates it; held by
          test_playback_buffering.py::
          test_the_next_sentence_is_judged_by_its_own_rate_not_the_streams.
        - Up to its last piece, not now: the time since is counted by predicting from there,
          and counting it twice would make a producer look slower a sound-card block later.
        - Less the vocoder time the producer reported (at most half the time, so that a wrong
          report cannot make tokens look more than twice as fast as the pieces came; pieces
          slower than real time never start, `_grid_allows`): a call's cost is mostly fixed,
          so charged to the tokens it made the 12-token pieces look slower than the 48-token
          ones that follow (`_making_time` predicts the calls)."""
        if seg.first is None:
            return None
        last, received, vocoded = seg.recent[-1]
        rates = []
        for then, before, vocoded_then in (seg.first, seg.recent[0]):
            span = last - then
            if span > 0:
                making = span - min(vocoded - vocoded_then, span / 2)
                rates.append((received - before) / self.sample_rate / making)
        return min(rates) if rates else None

    def _making_time(self, seg: _Segment, rate: float, margin: float) -> Callable[[int], float]:
        """Seconds to make a grid piece of n tokens: its tokens at `rate`, and a vocoder call
        scaled from the segment's last piece's by (n + VOCODER_CALL_TOKENS), both slowed
        by `margin`. The scaling assumes most of a call's cost is fixed (see
        VOCODER_CALL_TOKENS); a vocoder whose calls grew in proportion to their pieces would be
        predicted too fast for large pieces (tests/engine/test_playback_vocoder_cost.py holds
        the constant to the profiled calls)."""
        token_s = SAMPLES_PER_TOKEN / self.sample_rate / (rate * margin)
        if seg.last_call is None:
            return lambda n: n * token_s
        tokens, seconds = seg.last_call
        per_token = seconds / margin / (tokens + VOCODER_CALL_TOKENS)
        return lambda n: n * token_s + (n + VOCODER_CALL_TOKENS) * per_token

    def _pieces_in_time(self, seg: _Segment, now: float, making: Callable[[int], float]) -> bool:
        """Each of the grid's next pieces, made one after another from the last arrival (each
        taking `making(tokens)`), comes before the speaker reaches it: until pieces reach their
        largest size; from then on the lead only grows (checked by the caller)."""
        token_s = SAMPLES_PER_TOKEN / self.sample_rate
        sent = end = seg.received // SAMPLES_PER_TOKEN
        arrives = seg.last_arrival
        while True:
            size = piece_size(end)
            arrives += making(size)
            # The speaker reaches the piece's start after what is queued and the pieces before it.
            needed = now + seg.queued / self.sample_rate + (end - sent) * token_s
            if arrives > needed:
                return False
            if size >= DEFAULT_MAX_PIECE:
                return True
            end += size

    def _decide_state_locked(self, now: float) -> BufferState | None:
        """The state to report now, if it changed."""
        seg = self._segments[0] if self._segments else None
        if seg is None:
            new = BufferState.IDLE if self._ended else BufferState.BUFFERING
        elif (seg.pieces or seg.complete) and self._limit_locked(seg, now) > seg.played:
            new = BufferState.PLAYING
        else:
            new = BufferState.BUFFERING
        if new is self._state:
            return None
        self._state = new
        return new

    def pull(self, frames: int) -> tuple[np.ndarray, bool]:
        """`frames` samples for the speaker (silence where nothing may play yet) and whether
        the stream is over."""
        out = np.zeros(frames, dtype=np.float32)
        now = self._clock()
        filled = 0
        changes = []
        with self._lock:
            if self._state is BufferState.IDLE and not self._ended:
                self._state = BufferState.BUFFERING
                changes.append(BufferState.BUFFERING)
            while filled < frames and self._segments:
                seg = self._segments[0]
                limit = self._limit_locked(seg, now)
                if limit <= seg.played:
                    break  # not started, or held in a pause: wait
                seg.hold = None if limit == float("inf") else int(limit)
                if not seg.started:
                    seg.started = True
                    if self.first_sound_at is None:
                        self.first_sound_at = now
                if not seg.pieces:
                    if seg.complete:
                        self._segments.popleft()
                        continue
                    if not self._dry:  # should not happen: the start rule is conservative
                        self.gaps_inside += 1
                        self._dry = True
                    break
                self._dry = False
                head = seg.pieces[0]
                take = int(min(frames - filled, len(head), limit - seg.played))
                out[filled : filled + take] = head[:take]
                filled += take
                seg.queued -= take
                seg.played += take
                self.played_total += take
                if take == len(head):
                    seg.pieces.popleft()
                else:
                    seg.pieces[0] = head[take:]
                if not seg.pieces and seg.complete:
                    self._segments.popleft()
            change = self._decide_state_locked(now)
            if change is not None:
                changes.append(change)
            over = self._ended and not self._segments
        for change in changes:
            self._notify(change)
        return out, over

    @property
    def state(self) -> BufferState:
        return self._state

    def _notify(self, state: BufferState | None) -> None:
        if state is not None and self._on_state is not None:
            self._on_state(state)
