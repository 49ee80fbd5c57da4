"""Where an over-long sentence may be cut: never inside a [control_token], a Latin word, a
number, nor next to the no-break space that glues a spoken number together (unless nothing
else is left); a segment ends with punctuation so ChatTTS does not swallow its last word.
Every case uses Chinese filler, where any position is otherwise a legal cut."""

import pytest

from app.text.prepare import KEEP_TOGETHER, finish_segment, split_text


def _cuts_at_legal_places(text, limit):
    segments = split_text(text, limit)
    assert "".join(segments) == text.replace(" ", "")
    assert all(len(s) <= limit for s in segments)
    return segments


def test_a_control_token_is_never_cut():
    segments = _cuts_at_legal_places("你好你好[uv_break]你好你好", 12)
    assert segments == ["你好你好", "[uv_break]你好", "你好"]


def test_a_latin_word_is_never_cut():
    assert _cuts_at_legal_places("你好你好abcdef你好", 7) == ["你好你好", "abcdef你", "好"]


@pytest.mark.parametrize("number", ["12345", "3.14", "1,000", "9:05"])
def test_a_number_is_never_cut(number):
    segments = _cuts_at_legal_places("你好你" + number + "你好你好", 7)
    assert any(number in s for s in segments)


def test_a_spoken_number_stays_glued_unless_nothing_else_is_left():
    glued = "你好你" + KEEP_TOGETHER + "好你好"
    assert split_text(glued, 4) == ["你好", "你" + KEEP_TOGETHER + "好你", "好"]
    only_glue = KEEP_TOGETHER.join("一二三四")  # every place is next to the glue
    assert all(len(s) <= 3 for s in split_text(only_glue, 3))


def test_a_word_longer_than_the_limit_is_cut_at_the_limit():
    assert split_text("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_soft_breaks_are_preferred_and_short_parts_are_joined():
    # Cut after each comma, then as many whole parts as fit the limit go together.
    assert split_text("一二，三四，五六七八九", 6) == ["一二，三四，", "五六七八九"]
    assert split_text("一二，三四，五六七八九", 5) == ["一二，", "三四，", "五六七八九"]


@pytest.mark.parametrize(
    "segment, finished",
    [
        ("你好", "你好。"),
        ("hello", "hello."),
        ("hello!", "hello!"),
        ("你好。[laugh]", "你好。[laugh]"),  # a token after the punctuation does not count
        ("你好[laugh]", "你好[laugh]。"),
        ("[laugh]", "[laugh]"),  # nothing to end
        ("你好  ", "你好。"),
        ("你好。 [laugh]", "你好。 [laugh]"),  # a space before the token does not count either
        ("[laugh]你好[uv_break]", "[laugh]你好[uv_break]。"),  # only trailing tokens are set aside
        ("你好。[laugh]好", "你好。[laugh]好。"),  # a token inside is not the end
    ],
)
def test_a_segment_ends_with_punctuation(segment, finished):
    assert finish_segment(segment) == finished


def test_a_long_word_after_a_short_part_starts_its_own_segments():
    assert split_text("一，abcdefghij", 4) == ["一，", "abcd", "efgh", "ij"]
