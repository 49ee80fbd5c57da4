import pytest

from app.core.errors import InputTextError
from app.text.prepare import MAX_TEXT_CHARS, check_text, split_text


@pytest.mark.parametrize("text", ["", "   ", "\n\t \n", None])
def test_empty_or_whitespace_text_is_refused(text):
    with pytest.raises(InputTextError, match="no text to speak"):
        check_text(text)


def test_too_long_text_is_refused_with_the_limit():
    with pytest.raises(InputTextError, match=f"{MAX_TEXT_CHARS:,}"):
        check_text("字" * (MAX_TEXT_CHARS + 1))


def test_split_at_sentence_ends_in_both_languages():
    segments = split_text("你好，世界。今天天气很好！Hello there. How are you?\nNew line")
    assert segments == [
        "你好，世界。",
        "今天天气很好！",
        "Hello there.",
        "How are you?",
        "New line",
    ]


def test_decimal_point_is_not_a_sentence_end():
    assert split_text("Pi is 3.14 exactly.") == ["Pi is 3.14 exactly."]


def test_long_sentences_are_bounded_and_nothing_is_lost():
    text = "，".join(["这是一个很长的句子的一部分"] * 40) + "。"
    segments = split_text(text, limit=50)
    assert all(len(s) <= 50 for s in segments)
    assert "".join(segments) == text
    assert len(segments) > 1
