"""A sentence made too slowly to play as it comes is heard from its first pause on, not only
once whole; the player waits only between sentences or inside a pause, never inside a word
(the near-silent closure of a stop consonant is part of a word)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.audio.buffering import BufferState, SegmentBuffer
from app.audio.pauses import FLOOR, INTO_PAUSE_S, MIN_PAUSE_S, PauseFinder
from tests.support.playback_sim import BLOCK, SAMPLE_RATE, play
from tests.support.speech_like import (
    ROOM_NOISE,
    inserted_silences,
    outside_pauses,
    quiet,
    sentence,
    streamed,
    syllable,
)

CLAUSES = [[6, 5, 7], [4], [8, 3], [5, 6, 4, 3]]
# Hiss under the speech: below the absolute floor, and above it (-66 dBFS), where only
# "quiet relative to the speech" finds the pauses.
NOISES = [ROOM_NOISE, 5 * FLOOR]


def _sentences(noise=ROOM_NOISE):
    made = [sentence(c, seed=i, noise=noise) for i, c in enumerate(CLAUSES)]
    return [audio for audio, _ in made], [pauses for _, pauses in made]


def _near_start(wait: int, pause_start: int) -> bool:
    """A wait point INTO_PAUSE_S into the pause, counted from its first whole quiet frame."""
    into = round(INTO_PAUSE_S * SAMPLE_RATE)
    return pause_start + into <= wait < pause_start + into + PauseFinder(SAMPLE_RATE).frame


@pytest.mark.parametrize("noise", NOISES)
@pytest.mark.parametrize("speed", [0.35, 0.5, 0.8, 1.0, 1.3, 3.0])
@pytest.mark.parametrize("piece_s", [0.1, 0.256, 0.6])
def test_waits_only_between_sentences_or_inside_a_pause(speed, piece_s, noise):
    audio, pauses = _sentences(noise)
    played = play(streamed(audio, speed, piece_s=piece_s))
    waits = inserted_silences(played.output, audio)  # also: every sample once, in order
    assert outside_pauses(waits, pauses) == []
    assert played.buffer_gaps == 0


@pytest.mark.parametrize("noise", NOISES)
@pytest.mark.parametrize("speed", [0.35, 0.5, 0.8])
def test_a_slow_producer_is_heard_from_the_first_pause_not_the_whole_sentence(speed, noise):
    audio, pauses = _sentences(noise)
    arrivals = streamed(audio, speed)
    first_whole = next(a.at for a in arrivals if a.final)
    # The first clause and the part of its pause it plays into have arrived.
    needed = pauses[0][0][0] + MIN_PAUSE_S * SAMPLE_RATE
    clause_ready = next(
        a.at
        for a, total in zip(arrivals, np.cumsum([a.samples for a in arrivals]))
        if total >= needed
    )
    played = play(arrivals)
    assert clause_ready <= played.first_sound_s <= clause_ready + 0.021
    assert played.first_sound_s < first_whole - 1.0
    # ... and it then waited in that pause: the listener hears a longer pause, not a broken word.
    waits = inserted_silences(played.output, audio)
    assert any(_near_start(offset, pauses[0][0][0]) for k, offset in waits if k == 0)


@pytest.mark.parametrize("speed", [0.35, 0.8, 1.3])
def test_the_state_says_buffering_exactly_while_the_player_waits(speed):
    """What the window shows: "buffering" while silence is inserted (between sentences or in a
    pause), "speaking" while speech plays. Checked on each sound-card block that no new piece
    came before (a piece may change the decision)."""
    audio, _ = _sentences()
    arrivals = streamed(audio, speed)
    now = [0.0]
    buffer = SegmentBuffer(SAMPLE_RATE, lambda: now[0])
    k, checked, wrong, over = 0, 0, [], False
    before = None
    while not over:
        pushed = False
        while k < len(arrivals) and arrivals[k].at <= now[0]:
            a = arrivals[k]
            buffer.push(a.audio, a.segment, a.final)
            k, pushed = k + 1, True
        if k == len(arrivals):
            buffer.end()
        block, over = buffer.pull(BLOCK)
        if before is not None and not pushed and not over:
            checked += 1
            if (before is BufferState.BUFFERING) != (block[0] == 0.0):
                wrong.append((round(now[0], 2), before))
        before = buffer.state
        now[0] += BLOCK / SAMPLE_RATE
    assert checked > 100 and wrong == []


def test_a_fast_producer_plays_its_pauses_as_they_are():
    audio, _ = _sentences()
    played = play(streamed(audio, 3.0))
    waits = inserted_silences(played.output, audio)
    assert all(offset == 0 for _, offset in waits)


def test_a_sentence_without_pauses_still_waits_until_whole_when_made_slowly():
    """Only closures between syllables: no place inside it to wait."""
    audio, pauses = sentence([12], seed=7)
    assert pauses == []
    arrivals = streamed([audio], 0.5)
    played = play(arrivals)
    assert played.first_sound_s >= arrivals[-1].at
    assert inserted_silences(played.output, [audio]) == [(0, 0)]


def _waits(pieces):
    finder = PauseFinder(SAMPLE_RATE)
    for piece in pieces:
        finder.feed(piece)
    return finder.waits


def test_pauses_are_found_after_sound_and_closures_are_not():
    rng = np.random.default_rng(0)
    lead = quiet(0.5, rng)  # before any speech: not a pause in it
    word, closure, word2 = syllable(0.3, rng), quiet(0.15, rng), syllable(0.3, rng)
    pause, word3 = quiet(0.3, rng), syllable(0.2, rng)
    audio = np.concatenate([lead, word, closure, word2, pause, word3])
    pause_at = len(lead) + len(word) + len(closure) + len(word2)
    waits = _waits([audio])
    assert len(waits) == 1 and _near_start(waits[0], pause_at)


def test_a_pause_still_going_at_the_end_of_what_arrived_is_a_wait_point():
    rng = np.random.default_rng(1)
    word, pause = syllable(0.3, rng), quiet(MIN_PAUSE_S + 0.02, rng)
    waits = _waits([word, pause])
    assert len(waits) == 1 and _near_start(waits[0], len(word))
    assert _waits([word, pause[: int((MIN_PAUSE_S - 0.05) * SAMPLE_RATE)]]) == []


def test_quiet_is_judged_against_the_speech_around_it():
    """A soft reader's syllables are not pauses; a loud reader's hiss, above any fixed floor,
    still is one."""
    audio, pauses = sentence([5, 5], seed=3)
    soft = (audio * 0.01).astype(np.float32)
    waits = _waits([audio])
    assert _waits([soft]) == waits and len(waits) == 1 and _near_start(waits[0], pauses[0][0])
    hissy, hissy_pauses = sentence([5, 5], seed=3, noise=20 * FLOOR)  # -54 dBFS
    waits = _waits([hissy])
    assert len(waits) == 1 and _near_start(waits[0], hissy_pauses[0][0])


@pytest.mark.parametrize("click", [0.3, 1.0])
def test_a_click_does_not_make_the_soft_speech_after_it_a_pause(click):
    audio, pauses = sentence([8, 8], seed=3)
    soft = (audio * 0.03).astype(np.float32)
    pop = np.full(240, click, dtype=np.float32)  # one 10 ms pop before the speech
    waits = _waits([pop, soft])
    assert len(waits) == 1 and _near_start(waits[0] - len(pop), pauses[0][0])


def test_held_in_a_pause_it_plays_on_once_the_rest_comes_fast_enough():
    """Started at a pause because audio came slowly; then it comes fast, with no pause ahead
    and the sentence not finished: the player goes on rather than wait for the sentence."""
    rng = np.random.default_rng(5)
    clause = np.concatenate([syllable(0.3, rng), syllable(0.25, rng), quiet(0.4, rng)])
    rest = np.concatenate([syllable(0.25, rng) for _ in range(40)])  # no pause in it
    now = [0.0]
    buffer = SegmentBuffer(SAMPLE_RATE, lambda: now[0])
    buffer.push(clause, 0, False)
    now[0] = 2.0
    buffer.push(rest[:2400], 0, False)  # 0.1 s in 2 s: far slower than real time
    played = []
    while now[0] < 3.0:
        block, _ = buffer.pull(BLOCK)
        played.append(block)
        now[0] += BLOCK / SAMPLE_RATE
    heard = np.concatenate(played)
    assert heard[0] != 0.0 and (heard == 0.0).any()  # started, then held in the pause
    buffer.push(rest[2400:], 0, False)  # 9.9 s more at once
    after = np.concatenate([buffer.pull(BLOCK)[0] for _ in range(100)])
    assert (after != 0.0).all()


@settings(max_examples=60, deadline=None)
@given(
    cuts=st.lists(st.integers(min_value=0, max_value=200_000), max_size=12),
    seed=st.integers(min_value=0, max_value=5),
)
def test_wait_points_do_not_depend_on_how_the_audio_was_cut_into_pieces(cuts, seed):
    audio, _ = sentence([4, 3, 5], seed=seed)
    bounds = sorted({min(c, len(audio)) for c in cuts} | {0, len(audio)})
    pieces = [audio[a:b] for a, b in zip(bounds, bounds[1:])]
    assert _waits(pieces) == _waits([audio])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(min_value=-1.0, max_value=1.0, allow_nan=False, width=32), max_size=3000),
    st.integers(min_value=1, max_value=700),
)
def test_any_samples_give_ordered_wait_points_inside_what_arrived(values, piece):
    audio = np.asarray(values, dtype=np.float32)
    waits = _waits([audio[i : i + piece] for i in range(0, len(audio), piece)])
    assert waits == sorted(set(waits)) and all(0 < w < len(audio) for w in waits)


def test_broken_samples_are_neither_a_pause_nor_the_level_pauses_are_judged_by():
    rng = np.random.default_rng(2)
    word, word2, pause = syllable(0.3, rng), syllable(0.4, rng), quiet(0.4, rng)
    for bad in (np.inf, -np.inf, np.nan):
        broken = np.full(240 * 30, bad, dtype=np.float32)  # 0.3 s, longer than a pause
        waits = _waits([word, broken, word2, pause])
        assert len(waits) == 1 and _near_start(waits[0], len(word) + len(broken) + len(word2)), bad


@pytest.mark.parametrize("slows_at", [120, 200])
def test_a_machine_that_slows_after_the_start_waits_in_a_pause_it_has(slows_at):
    """Started at the second piece on a 1.4x rate, then made at 0.6x (another program took the
    CPU): the rest no longer comes in time, so the speaker plays on only to the furthest pause
    that has arrived and waits there; it went on to the end before, and ran dry inside words.
    (Where no pause has arrived before the speaker runs dry, nothing can keep the word whole.)"""
    from tests.support.playback_sim import paced_grid_arrivals
    from tests.support.speech_like import speech_over

    arrivals = paced_grid_arrivals(400, lambda n: 1.4 if n < slows_at else 0.6, latency_s=0.1)
    shaped, audio, pauses = speech_over(arrivals, seed=slows_at)
    played = play(shaped)
    assert played.first_sound_s <= arrivals[1].at + 0.021
    waits = inserted_silences(played.output, audio)
    assert len(waits) > 1 and outside_pauses(waits, pauses) == []
