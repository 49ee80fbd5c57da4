"""A chapter laid out in time: pauses between sentences, cues at their start, overflows reported."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.narration.export.timeline import assemble_chapter, join_chapters
from app.narration.rendered import RenderedChapter, RenderedSentence

RATE = 24_000


def tone(samples: int, level: float = 0.25) -> np.ndarray:
    """A square wave: every sample non-zero, so silence and sound are told apart exactly."""
    return np.where(np.arange(samples) % 40 < 20, level, -level).astype(np.float32)


def chapter(lengths, title="Ch", timing=None) -> RenderedChapter:
    timing = timing or [(None, None)] * len(lengths)
    return RenderedChapter(
        title,
        tuple(RenderedSentence(f"s{i}", tone(n), *timing[i]) for i, n in enumerate(lengths)),
        RATE,
    )


def test_sentences_with_pauses_land_where_the_spans_say():
    t = assemble_chapter(chapter([1000, 2000, 500]), 0.25, RATE)
    pause = 6000
    assert [(s.start, s.end) for s in t.spans] == [
        (0, 1000),
        (1000 + pause, 3000 + pause),
        (3000 + 2 * pause, 3500 + 2 * pause),
    ]
    assert len(t.audio) == 3500 + 2 * pause
    sound = t.audio != 0
    for s in t.spans:
        assert sound[s.start : s.end].all()
    assert not sound[1000 : 1000 + pause].any()


def test_chapters_joined_move_their_spans_by_the_chapter_start():
    a = assemble_chapter(chapter([1000]), 0.0, RATE, index=0)
    b = assemble_chapter(chapter([300, 300]), 0.1, RATE, index=1)
    joined = join_chapters([a, b], 1.0, RATE)
    assert joined.chapter_starts == (0, 1000 + RATE)
    assert [(s.chapter, s.start) for s in joined.spans] == [
        (0, 0),
        (1, 25_000),
        (1, 25_000 + 300 + 2400),
    ]
    assert len(joined.audio) == 25_000 + 300 + 2400 + 300


def test_a_chapter_at_another_rate_is_converted_and_timed_at_the_output_rate():
    src = RenderedChapter(
        "x", (RenderedSentence("a", tone(1600)), RenderedSentence("b", tone(800))), 16_000
    )
    t = assemble_chapter(src, 0.5, 48_000)
    assert [(s.start, s.end) for s in t.spans] == [(0, 4800), (4800 + 24_000, 4800 + 24_000 + 2400)]


def test_timed_cues_start_at_their_time():
    t = assemble_chapter(chapter([RATE, RATE // 2], timing=[(1.0, 3.0), (5.0, 6.0)]), 0.3, RATE)
    assert [(s.start, s.end) for s in t.spans] == [
        (RATE, 2 * RATE),
        (5 * RATE, 5 * RATE + RATE // 2),
    ]
    assert not t.overflows
    assert not t.audio[:RATE].any()


def test_a_cue_longer_than_its_slot_is_reported_and_pushes_the_next_one():
    # 2.5 s of speech for a cue from 1 s to 3 s; the next cue starts at 3.2 s.
    t = assemble_chapter(
        chapter([int(2.5 * RATE), RATE], timing=[(1.0, 3.0), (3.2, 4.0)]), 0.3, RATE
    )
    first, second = t.overflows
    assert first.sentences == (0,) and first.cue_start == 1.0 and first.slot_end == 3.0
    assert first.over == pytest.approx(0.5, abs=1 / RATE)
    assert first.speed_needed == pytest.approx(1.25)
    # Never overlapped: the second cue waits for the first to end, and is late by 0.3 s.
    assert t.spans[1].start == t.spans[0].end == int(3.5 * RATE)
    assert second.placed_at == pytest.approx(3.5) and second.over == pytest.approx(
        0.5, abs=1 / RATE
    )
    assert "0.50 s" in first.message() and "0:00:01.000" in first.message()
    # Never cut: each sentence's samples are all there.
    assert len(t.audio) == int(4.5 * RATE)


def test_a_cue_may_not_run_into_the_next_even_before_its_own_end():
    t = assemble_chapter(chapter([2 * RATE, RATE], timing=[(0.0, 5.0), (1.5, 3.0)]), 0.3, RATE)
    assert t.overflows[0].slot_end == 1.5 and t.overflows[0].over == pytest.approx(
        0.5, abs=1 / RATE
    )


def test_one_cue_split_into_sentences_is_one_cue_with_pauses_inside():
    t = assemble_chapter(chapter([RATE, RATE], timing=[(2.0, 3.5), (2.0, 3.5)]), 0.25, RATE)
    assert [s.start for s in t.spans] == [2 * RATE, 3 * RATE + RATE // 4]
    (over,) = t.overflows
    assert over.sentences == (0, 1) and over.over == pytest.approx(0.75, abs=1 / RATE)


lengths = st.lists(st.integers(0, 3000), min_size=1, max_size=8)


@settings(max_examples=150, deadline=None)
@given(lengths, st.floats(0, 1))
def test_plain_chapter_invariants(sizes, pause):
    t = assemble_chapter(chapter(sizes), pause, RATE)
    gap = int(round(pause * RATE))
    assert [s.end - s.start for s in t.spans] == sizes
    assert all(b.start - a.end == gap for a, b in zip(t.spans, t.spans[1:]))
    assert len(t.audio) == sum(sizes) + gap * (len(sizes) - 1) == t.spans[-1].end


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3000), st.floats(0, 2), st.floats(0.01, 2)), min_size=1, max_size=8
    )
)
def test_timed_chapter_invariants(cues):
    timing, start = [], 0.0
    for _n, gap, length in cues:  # cues in time order, each with a positive slot
        start += gap
        timing.append((start, start + length))
        start += length
    sizes = [n for n, _g, _l in cues]
    t = assemble_chapter(chapter(sizes, timing=timing), 0.2, RATE)
    assert [s.end - s.start for s in t.spans] == sizes  # nothing cut
    assert all(a.end <= b.start for a, b in zip(t.spans, t.spans[1:]))  # nothing overlaps
    for s, (cue_start, _end) in zip(t.spans, timing):
        assert s.start >= round(cue_start * RATE)  # never early
    flagged = {o.sentences[0] for o in t.overflows}
    for i, s in enumerate(t.spans):
        slot_end = min(timing[i][1], timing[i + 1][0]) if i + 1 < len(timing) else timing[i][1]
        assert (s.end > round(slot_end * RATE)) == (i in flagged)  # every overflow reported
    for o in t.overflows:
        assert o.over == pytest.approx(
            t.spans[o.sentences[-1]].end / RATE - o.slot_end, abs=1 / RATE
        )


times = st.none() | st.floats(allow_nan=True, allow_infinity=True) | st.floats(-5, 20)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2000), times, times), min_size=1, max_size=6))
@example(
    [(0, 22.0, None)]
)  # a usable start past the bounded strategy's 20 s (drawn by an unbounded float)
def test_damaged_cue_times_never_crash_cut_or_overlap(rows):
    sizes = [n for n, _s, _e in rows]
    t = assemble_chapter(chapter(sizes, timing=[(s, e) for _n, s, e in rows]), 0.1, RATE)
    assert [s.end - s.start for s in t.spans] == sizes
    assert all(a.end <= b.start for a, b in zip(t.spans, t.spans[1:]))
    # Silence before a cue reaches at most the latest usable start (a day at most), never beyond.
    usable = [c for _n, c, _e in rows if c is not None and math.isfinite(c) and 0 <= c <= 86_400]
    latest = max(usable + [0.0])
    assert (
        len(t.audio)
        == max([s.end for s in t.spans] + [0])
        <= (latest + 1) * RATE + sum(sizes) + 6 * 2400
    )


def test_a_cue_days_away_is_not_days_of_silence():
    t = assemble_chapter(chapter([100, 100], timing=[(1e9, None), (0.5, 1.0)]), 0.0, RATE)
    assert len(t.audio) == int(0.5 * RATE) + 100
