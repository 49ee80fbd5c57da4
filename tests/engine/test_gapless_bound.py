"""The hindsight bound the benchmarks report next to the first sound: the earliest start from
which a sentence would have played through, given when its pieces really arrived."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.playback_sim import (
    SAMPLE_RATE,
    Arrival,
    earliest_gapless_start,
    grid_arrivals,
    play,
)


def _pieces(spec, segment=0):
    """(arrival s, audio s) pairs -> arrivals of one segment, the last one final."""
    return [
        Arrival(at, round(seconds * SAMPLE_RATE), segment, i == len(spec) - 1)
        for i, (at, seconds) in enumerate(spec)
    ]


def test_the_latest_piece_relative_to_what_plays_before_it_sets_the_start():
    # Needed at 0.2, at 0.5 - 0.1 = 0.4 and at 0.6 - 0.4 = 0.2 after the start.
    arrivals = _pieces([(0.2, 0.1), (0.5, 0.3), (0.6, 0.3)])
    assert earliest_gapless_start(arrivals) == pytest.approx(0.4)


def test_a_producer_far_ahead_is_bounded_by_its_first_piece():
    arrivals = _pieces([(0.3, 1.0), (0.4, 1.0), (0.5, 1.0)])
    assert earliest_gapless_start(arrivals) == pytest.approx(0.3)


def test_only_the_asked_segment_counts():
    arrivals = _pieces([(0.2, 0.1), (0.3, 0.1)]) + _pieces([(9.0, 0.1)], segment=1)
    assert earliest_gapless_start(arrivals) == pytest.approx(0.2)
    assert earliest_gapless_start(arrivals, segment=1) == pytest.approx(9.0)
    assert earliest_gapless_start(arrivals, segment=2) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 2.0), st.floats(0.001, 1.0)), min_size=1, max_size=12))
def test_from_the_bound_every_piece_is_there_in_time_and_a_moment_earlier_one_is_not(spec):
    times = sorted(t for t, _ in spec)
    arrivals = _pieces(list(zip(times, (s for _, s in spec))))
    start = earliest_gapless_start(arrivals)
    before, late_if_earlier = 0, False
    for a in arrivals:
        needed = start + before / SAMPLE_RATE
        assert a.at <= needed + 1e-9
        late_if_earlier |= a.at > needed - 1e-3
        before += a.samples
    assert late_if_earlier


@pytest.mark.parametrize("speed", [1.3, 1.6, 2.5, 4.0])
def test_the_player_never_starts_before_the_bound_and_is_close_to_it_when_fast(speed):
    """No player that keeps a sentence whole beats hindsight; a fast producer is heard within a
    sound card block of its second piece, and the bound is no earlier than its first."""
    arrivals = grid_arrivals(300, speed)
    played = play(arrivals)
    bound = earliest_gapless_start(arrivals)
    assert played.gaps_inside_sentences() == 0
    assert arrivals[0].at <= bound <= played.first_sound_s + 1e-9
    if speed >= 1.6:
        assert played.first_sound_s <= arrivals[1].at + 0.021


def test_pieces_growing_by_a_quarter_let_a_125x_sentence_start_at_its_second_piece(monkeypatch):
    """A grown piece arrives as many tokens' time after the one before as it holds, so pieces
    that grow fast push the earliest gapless start past the second piece, where the player
    first knows the rate; growing to a quarter of what was sent keeps it before."""
    from app.audio import piece_grid

    arrivals = grid_arrivals(300, 1.25, latency_s=0.05)
    assert earliest_gapless_start(arrivals) < arrivals[1].at
    monkeypatch.setattr(piece_grid, "GROWTH", 2)
    halves = grid_arrivals(300, 1.25, latency_s=0.05)
    assert earliest_gapless_start(halves) > halves[1].at + 0.05
