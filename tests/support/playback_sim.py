"""Playback in simulated time: a producer's pieces arrive at given moments, the sound
output's callback pulls fixed blocks as a sound card would, and what came out is checked.

Every piece is replaced by a marker (segment k sounds as the constant k + 1), so a gap inside
a sentence can be counted from the output alone, independently of the buffer's own count: a
run of silence with the same segment's marker on both sides. Used by the tests and by
bench/playback.py (which replays arrival times measured on the real engine).
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field

import numpy as np

from app.audio.buffering import BufferState
from app.audio.playback import SoundDeviceOutput

SAMPLE_RATE = 24_000
BLOCK = 480  # 20 ms per callback, a typical sound card period


@dataclass
class Arrival:
    at: float  # seconds after Play
    samples: int
    segment: int
    final: bool
    audio: np.ndarray | None = None  # the piece's samples; None: the segment's marker
    vocoder_s: float = 0.0  # what the producer reports its vocoder took for the piece


@dataclass
class Played:
    output: np.ndarray  # the markers the speaker got, 0.0 for silence
    first_sound_s: float | None
    states: list = field(default_factory=list)  # BufferState changes, in order
    buffer_gaps: int = 0  # the buffer's own count, for comparison
    played_samples: int = 0  # what the output said it had played, at the end

    def gaps_inside_sentences(self) -> int:
        out = self.output
        gaps, i = 0, 0
        while i < len(out):
            if out[i] == 0.0:
                j = i
                while j < len(out) and out[j] == 0.0:
                    j += 1
                if i > 0 and j < len(out) and out[i - 1] == out[j]:
                    gaps += 1
                i = j
            else:
                i += 1
        return gaps

    def audio_seconds(self) -> float:
        return float(np.count_nonzero(self.output)) / SAMPLE_RATE


def earliest_gapless_start(arrivals: list[Arrival], segment: int = 0) -> float | None:
    """In hindsight, the earliest moment (seconds after Play) the segment could have started
    sounding and played through without running dry, given when its pieces arrived: the best any
    player that never breaks a sentence could have done, had it known every arrival in advance
    (a real one knows only the past, and the rate it measured). None: no piece of it arrived."""
    start, before = None, 0
    for a in arrivals:
        if a.segment != segment:
            continue
        # Piece k is needed once the pieces before it have played.
        need = a.at - before / SAMPLE_RATE
        start = need if start is None else max(start, need)
        before += a.samples
    return start


def paced(
    durations: list[float],
    speed: float,
    piece_s: float = 0.256,
    latency_s: float = 0.3,
    stall: tuple[float, float] | None = None,
) -> list[Arrival]:
    """A producer making `speed` seconds of audio per second, in pieces of `piece_s`, after
    `latency_s`; `stall`: (at, seconds) it stops making anything once."""
    arrivals, t = [], latency_s
    piece = int(piece_s * SAMPLE_RATE)
    for index, seconds in enumerate(durations):
        left = int(seconds * SAMPLE_RATE)
        while left > 0:
            n = min(piece, left)
            t += n / SAMPLE_RATE / speed
            if stall is not None and t >= stall[0]:
                t += stall[1]
                stall = None
            left -= n
            arrivals.append(Arrival(t, n, index, left == 0))
    return arrivals


def grid_arrivals(
    tokens: int, speed: float, latency_s: float = 0.3, looks: int = 4, **vocoder
) -> list[Arrival]:
    """One sentence of `tokens` tokens streamed on the vocoder's real token grid
    (`StreamingVocoder`, shipped defaults unless given): a token takes 1 / `speed` of its
    audio's length to make, and pieces are looked for every `looks` tokens, as the engine does."""
    return paced_grid_arrivals(tokens, lambda n: speed, latency_s, looks=looks, **vocoder)


def paced_grid_arrivals(
    tokens: int,
    speed_at,
    latency_s: float = 0.1,
    piece_cost_s: float = 0.0,
    looks: int = 4,
    token_cost_s: float = 0.0,
    **vocoder,
) -> list[Arrival]:
    """One sentence on the vocoder's token grid (as `grid_arrivals`), its n-th token (from 0)
    made at `speed_at(n)` times real time, and each piece costing the vocoder `piece_cost_s`
    plus `token_cost_s` per token it holds, which the producer reports with the piece."""
    import torch

    from app.audio.piece_grid import SAMPLES_PER_TOKEN
    from app.decode.vocoder_stream import StreamingVocoder

    stream = StreamingVocoder(None, context=0, **vocoder)
    token_s = SAMPLES_PER_TOKEN / SAMPLE_RATE
    t, arrivals = latency_s, []

    def send(n: int, final: bool) -> None:
        nonlocal t
        hiddens = torch.zeros(n, 1)
        while (window := stream.plan(hiddens, final)) is not None:
            before = stream.emitted
            stream.finish(
                window, np.zeros(window.hiddens.shape[0] * SAMPLES_PER_TOKEN, dtype=np.float32)
            )
            cost = piece_cost_s + token_cost_s * (stream.emitted - before) / SAMPLES_PER_TOKEN
            t += cost
            arrivals.append(Arrival(t, stream.emitted - before, 0, window.final, vocoder_s=cost))

    for n in range(1, tokens + 1):
        t += token_s / speed_at(n - 1)
        if n % looks == 0 and n < tokens:
            send(n, False)
    send(tokens, True)
    return arrivals


def wavering_grid_arrivals(
    tokens: int,
    speed: float,
    waver: float,
    seed: int,
    latency_s: float = 0.1,
    piece_cost_s: float = 0.018,
    token_cost_s: float = 0.0,
) -> list[Arrival]:
    """As a real machine makes them: the speed redrawn every 12 tokens within `speed` * (1 +-
    `waver`), and every piece costing the vocoder `piece_cost_s` (+ `token_cost_s` per token)
    more, so small pieces come slower than large ones
    (docs/design/constants.md#vocoder_call_tokens). Deterministic for a `seed`."""
    import random

    rng = random.Random(seed)
    speeds = [speed * (1 + rng.uniform(-waver, waver)) for _ in range(tokens // 12 + 1)]
    return paced_grid_arrivals(
        tokens, lambda n: speeds[n // 12], latency_s, piece_cost_s, token_cost_s=token_cost_s
    )


class CallbackStop(Exception):
    pass


class FakeStream:
    """A sound card's stream: the test calls the output's callback itself."""

    latency = 0.0  # seconds between the callback and the speaker

    def __init__(self, **kwargs):
        self.active = False

    def start(self):
        self.active = True

    def abort(self):
        self.active = False

    def close(self):
        pass


def fake_card_output(clock) -> SoundDeviceOutput:
    """A SoundDeviceOutput on a fake sound card (no PortAudio): drive it with `_callback`."""
    out = SoundDeviceOutput.__new__(SoundDeviceOutput)
    out.device, out._clock, out._stream, out._buffer, out.problem = None, clock, None, None, None
    out._paused, out._latency = False, 0
    out._sd = types.SimpleNamespace(OutputStream=FakeStream, CallbackStop=CallbackStop)
    return out


def play(arrivals: list[Arrival], limit_s: float = 600.0) -> Played:
    """Drive a SoundDeviceOutput (with a fake sound card) through `arrivals`."""
    now = [0.0]
    out = fake_card_output(lambda: now[0])
    states: list[BufferState] = []
    out.set_state_listener(states.append)
    out.start(SAMPLE_RATE)
    pending = sorted(arrivals, key=lambda a: a.at)
    blocks, k, ended = [], 0, False
    while now[0] < limit_s:
        while k < len(pending) and pending[k].at <= now[0]:
            a = pending[k]
            audio = (
                a.audio
                if a.audio is not None
                else np.full(a.samples, float(a.segment + 1), dtype=np.float32)
            )
            # Queued when it came, as the window queues a piece when it arrives; the sound card
            # pulls on its own 20 ms grid.
            pull_at, now[0] = now[0], a.at
            out.enqueue(audio, a.segment, a.final, a.vocoder_s)
            now[0] = pull_at
            k += 1
        if k == len(pending) and not ended:
            out.end_stream()
            ended = True
        buf = np.zeros((BLOCK, 1), dtype=np.float32)
        buffer = out.buffer()
        try:
            out._callback(buf, BLOCK, None, None)
        except CallbackStop:
            blocks.append(buf[:, 0].copy())
            break
        blocks.append(buf[:, 0].copy())
        now[0] += BLOCK / SAMPLE_RATE
    output = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)
    nonzero = np.flatnonzero(output)
    first = float(nonzero[0]) / SAMPLE_RATE if len(nonzero) else None
    return Played(output, first, states, buffer.gaps_inside if buffer else 0, out.played_samples())


def naive_gaps(arrivals: list[Arrival]) -> int:
    """Gaps inside sentences of a player that plays each piece the moment it arrives and waits
    in silence when it runs dry (the player before adaptive buffering), for comparison."""
    gaps, playhead, segment = 0, 0.0, None
    for a in sorted(arrivals, key=lambda a: a.at):
        if a.at > playhead and segment == a.segment:
            gaps += 1
        playhead = max(playhead, a.at) + a.samples / SAMPLE_RATE
        segment = None if a.final else a.segment
    return gaps
