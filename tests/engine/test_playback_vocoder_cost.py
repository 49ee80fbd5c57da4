"""The grid rule with the vocoder's time reported per piece: a streamed piece is its tokens'
making plus one vocoder call, whose cost is mostly fixed (context, lookahead, per-call work),
so 12-token pieces come slower than real time suggests for the 48-token ones that follow.
Told the call's time, the player predicts each coming piece from both parts (audio/buffering.py)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from app.audio.buffering import SegmentBuffer
from app.audio.piece_grid import SAMPLES_PER_TOKEN
from tests.support.playback_sim import (
    SAMPLE_RATE,
    paced_grid_arrivals,
    play,
    wavering_grid_arrivals,
)

# The profiled vocoder calls this model stands for: 41, 48.5, 55 and 63 ms for pieces of 12, 24,
# 36 and 48 tokens (docs/design/constants.md#vocoder_call_tokens).
MEASURED = dict(piece_cost_s=0.034, token_cost_s=0.0006)


def _second_piece_rate(arrivals) -> float:
    first, second = arrivals[0], arrivals[1]
    return second.samples / SAMPLE_RATE / (second.at - first.at)


def _unreported(arrivals):
    return [dataclasses.replace(a, vocoder_s=0.0) for a in arrivals]


def _first_two_pieces(
    now: list, second_at: float, first_call: float, second_call: float
) -> SegmentBuffer:
    """A buffer given the grid's first piece (4 tokens) at 0 and its second (12) at `second_at`,
    with those vocoder times reported; `now[0]` is its clock, left at `second_at`."""
    buf = SegmentBuffer(SAMPLE_RATE, lambda: now[0])
    now[0] = 0.0
    buf.push(np.ones(4 * SAMPLES_PER_TOKEN), 0, False, vocoder_s=first_call)
    now[0] = second_at
    buf.push(np.ones(12 * SAMPLES_PER_TOKEN), 0, False, vocoder_s=second_call)
    return buf


def test_a_sentence_whose_pieces_come_at_1_2x_starts_at_its_second_piece_when_told_the_vocoder_time():
    """Tokens made at 1.5x real time with the measured vocoder calls: the 12-token pieces come at
    about 1.2x, the 48-token ones faster. Told the calls' time the player starts at the second
    piece; judging every piece by the 12-token ones' rate it waited 0.2 s more."""
    arrivals = paced_grid_arrivals(400, lambda n: 1.5, 0.1, **MEASURED)
    assert 1.15 < _second_piece_rate(arrivals) < 1.22
    second = arrivals[1].at
    told, not_told = play(arrivals), play(_unreported(arrivals))
    for played in (told, not_told):
        assert played.gaps_inside_sentences() == 0 and played.buffer_gaps == 0
    assert second <= told.first_sound_s <= second + 0.021  # the sound card's next block
    assert not_told.first_sound_s > second + 0.15


@pytest.mark.parametrize("tokens", [100, 290, 500])
def test_no_gap_with_the_measured_vocoder_calls_at_any_speed(tokens):
    """Every token speed from 1.0x to 2.0x in 2% steps, each piece costing the measured call."""
    gapped = []
    for i in range(51):
        speed = 1.0 + i / 50
        played = play(paced_grid_arrivals(tokens, lambda n, speed=speed: speed, 0.1, **MEASURED))
        if played.gaps_inside_sentences() or played.buffer_gaps:
            gapped.append(speed)
    assert gapped == []


@pytest.mark.parametrize("told", [True, False])
@pytest.mark.parametrize("waver", [0.06, 0.10])
def test_no_gap_when_the_machine_wavers_with_the_measured_vocoder_calls(waver, told):
    """The token speed redrawn every 12 tokens within +-6% or +-10%, from 1.2x to 1.8x, 60 to
    450 tokens, the calls' time reported or not (another producer): never a gap."""
    gapped = []
    for seed in range(60):
        speed, tokens = 1.2 + 0.6 * (seed % 15) / 14, [60, 150, 300, 450][seed // 15]
        arrivals = wavering_grid_arrivals(tokens, speed, waver, seed, **MEASURED)
        played = play(arrivals if told else _unreported(arrivals))
        if played.gaps_inside_sentences() or played.buffer_gaps:
            gapped.append((speed, tokens))
    assert gapped == []


def test_the_call_model_never_predicts_less_than_the_measured_calls():
    """Scaled from a 12-token piece's 41 ms, the larger pieces' calls are predicted at least as
    long as they took (48.5, 55 and 63 ms for 24, 36 and 48 tokens): a model that assumed less
    fixed cost per call would have them arrive too soon."""
    buf = _first_two_pieces([0.0], 0.2, 0.03, 0.041)
    seg = buf._segments[0]
    making = buf._making_time(seg, rate=1e9, margin=1.0)  # tokens free: the call alone
    for tokens, took in ((12, 0.041), (24, 0.0485), (36, 0.055), (48, 0.063)):
        assert making(tokens) >= took - 1e-9
    assert making(48) < 0.063 * 1.1  # ... and not far more (it would delay every start)
    # The margin slows both parts: the machine's wavering slows its vocoder too.
    token_s = SAMPLES_PER_TOKEN / SAMPLE_RATE
    slowed = buf._making_time(seg, rate=1.5, margin=0.9)
    assert slowed(12) == pytest.approx(12 * token_s / (1.5 * 0.9) + 0.041 / 0.9)


def test_the_rate_is_the_tokens_less_the_reported_vocoder_time():
    buf = _first_two_pieces([0.0], 0.25, 0.03, 0.05)
    seg = buf._segments[0]
    audio_s = 12 * SAMPLES_PER_TOKEN / SAMPLE_RATE
    assert buf._segment_rate(seg) == pytest.approx(audio_s / (0.25 - 0.05))
    assert seg.last_call == (12, 0.05)


@pytest.mark.parametrize("claimed", [0.3, 0.5, 1.0])
def test_a_report_that_overstates_the_vocoder_does_not_start_a_slow_producer(claimed):
    """A producer at 0.9x whose reports say this share of each piece's time went to the
    vocoder: taken off the tokens, that time would come back smaller for larger pieces (it is
    scaled by size) and a 0.9x sentence would start and run dry. Its pieces come slower than
    real time, so it waits for the whole sentence instead."""
    slow = paced_grid_arrivals(290, lambda n: 0.9, 0.1)
    lying, before = [], 0.1
    for a in slow:
        lying.append(dataclasses.replace(a, vocoder_s=claimed * (a.at - before)))
        before = a.at
    played = play(lying)
    assert played.gaps_inside_sentences() == 0 and played.buffer_gaps == 0
    assert played.first_sound_s >= lying[-1].at


def test_a_report_that_is_not_a_number_counts_as_none():
    buf = _first_two_pieces([0.0], 0.2, float("nan"), float("inf"))
    seg = buf._segments[0]
    assert seg.last_call is None
    assert buf._segment_rate(seg) == pytest.approx(12 * SAMPLES_PER_TOKEN / SAMPLE_RATE / 0.2)


def test_the_next_piece_is_late_only_after_its_tokens_and_its_call():
    """Two pieces whose tokens came at 1.6x with 30-40 ms calls: at 0.9 of that the next
    12-token piece is due 0.178 s after the last for its tokens and 0.044 s more for its call.
    Between the two it is not yet late, and the sentence starts; past both it is, and it waits."""
    now = [0.0]
    buf = _first_two_pieces(now, 0.2, 0.03, 0.04)
    now[0] = 0.40  # after 0.2 + 0.178, before 0.2 + 0.178 + 0.044
    assert buf.pull(480)[0].any()
    buf = _first_two_pieces(now, 0.2, 0.03, 0.04)
    now[0] = 0.43
    assert not buf.pull(480)[0].any()
