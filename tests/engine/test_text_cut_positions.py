"""Where a part longer than the limit may be cut, position by position: the [token] test at
the text's edges and with several brackets, the digit rules on either side of a number, the
no-break glue only given up when nothing else is left, a cut right after the first character,
and the spoken number that normalization glues so the splitter cannot cut it. Chinese filler
makes every other position a legal cut, so each expected list follows from the rules alone."""

import io

import pytest

from app.core.errors import InputTextError
from app.text.prepare import (
    KEEP_TOGETHER,
    MAX_TEXT_BYTES,
    _inside_token,
    prepare_text,
    read_capped,
    split_text,
)


@pytest.mark.parametrize(
    "text, at, inside",
    [
        ("[uv_break]abc", 3, True),  # a token at the very start
        ("x[ab]y", 3, True),  # a token opening at position 1
        ("[]ab", 1, True),  # between the brackets of an empty token
        ("[a]bc", 4, False),  # after a closed token
        ("[a]x[bc]", 6, True),  # inside the second of two tokens
        ("[a]x[b]yz[c]", 8, False),  # between two tokens, with a later one still to come
        ("[a]b[cd", 5, False),  # an unclosed bracket after a closed token
        ("[ab", 2, False),  # an unclosed bracket alone
        ("abc", 2, False),
    ],
)
def test_a_position_is_inside_a_token_only_between_its_brackets(text, at, inside):
    assert _inside_token(text, at) is inside


def test_a_cut_may_fall_before_a_number():
    assert split_text("汉字汉字汉字汉字12345", 10) == ["汉字汉字汉字汉字", "12345"]


def test_a_cut_may_fall_right_after_a_number():
    assert split_text("汉字汉字汉字汉字12汉字汉字", 10) == ["汉字汉字汉字汉字12", "汉字汉字"]


def test_a_cut_after_the_first_character_beats_cutting_a_word():
    assert split_text("中abcdefgh", 5) == ["中", "abcde", "fgh"]


def test_glued_words_are_parted_at_the_glue_when_nothing_else_is_left():
    glued = KEEP_TOGETHER.join(["twenty", "three", "thousand"])
    assert split_text(glued, 10) == ["twenty", "three", "thousand"]


def test_a_legal_cut_before_glued_words_beats_cutting_at_the_glue():
    glued = "汉字汉字" + KEEP_TOGETHER.join(["twenty", "three"])
    assert split_text(glued, 12) == ["汉字汉字", KEEP_TOGETHER.join(["twenty", "three"])]


def test_a_spoken_number_that_does_not_fit_moves_whole_to_the_next_segment():
    spoken = "one hundred twenty three million four hundred fifty six thousand seven hundred eighty nine dollars."
    segments = prepare_text("word " * 14 + "it costs 123456789 dollars.").segments
    assert segments == ["word " * 14 + "it costs.", spoken]


def test_reading_stops_one_byte_past_the_limit():
    endless = io.BytesIO(b"a" * (MAX_TEXT_BYTES * 2))
    with pytest.raises(InputTextError):
        read_capped(endless, "/dev/zero")
    assert endless.tell() == MAX_TEXT_BYTES + 1
