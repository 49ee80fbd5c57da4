"""Splitting invariants (with property-based tests), control tokens, dictionary, preparation."""

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.library.lexicon import PronunciationDictionary
from app.text.control_tokens import INLINE, clean_control_tokens
from app.text.prepare import finish_segment, prepare_text, split_text
from app.text.sentences import wordy

PIECES = st.sampled_from(
    [
        "你好",
        "世界",
        "今天天气很好",
        "hello",
        "world",
        "wonderful",
        "ChatTTS",
        "。",
        "，",
        ". ",
        ", ",
        "! ",
        "？",
        " ",
        "\n",
        "[uv_break]",
        "[laugh]",
        "三点一四",
        "supercalifragilistic",
    ]
)
TEXTS = st.lists(PIECES, min_size=1, max_size=60).map("".join).filter(lambda t: t.strip())


def _words_span(segment: str) -> str:
    """The segment from its first to its last letter, digit or CJK character."""
    at = [i for i, ch in enumerate(segment) if wordy(ch)]
    return segment[at[0] : at[-1] + 1] if at else ""


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(min_value=12, max_value=80))
# Leading punctuation joined a word already cut at the limit, which then passed it.
@example("。supercalifragilistic", 12)
def test_split_never_exceeds_the_bound_and_loses_nothing(text, limit):
    segments = split_text(text, limit=limit)
    # Only punctuation may pass the limit (before or after the words): it stays with its words
    # rather than stand alone, and a word that fits is never cut for it.
    assert all(len(_words_span(s)) <= limit for s in segments)
    # Nothing speakable is lost; a line of punctuation alone is not read at all.
    assert _squash("".join(segments)) == _squash(
        "".join(line for line in text.splitlines() if wordy(line))
    )
    assert all(s == s.strip() for s in segments)


@settings(max_examples=500, deadline=None)
@given(
    st.text(min_size=1, max_size=200).filter(lambda t: t.strip()),
    st.integers(min_value=12, max_value=120),
)
@example("Hello!! Long time no see.", 120)
@example("她问道：“你是谁？”", 120)
def test_no_segment_is_punctuation_alone(text, limit):
    # ChatTTS babbles on a segment without words (issue 38: "”", "!" segments).
    assert all(wordy(s) for s in split_text(text, limit=limit))


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(min_value=25, max_value=80))
# The same two words cut at a line break here and joined elsewhere in the text:
# a split at a line break is not a word cut in two.
@example("你好你好你好hellowonderful你好hello\nwonderful", 25)
# Punctuation past the limit took the last letters of a word that fitted, not the whole word.
@example("hellosupercalifragilistic。", 25)
def test_split_keeps_control_tokens_and_latin_words_whole(text, limit):
    segments = split_text(text, limit=limit)
    for seg in segments:
        # Every bracket in a segment belongs to a complete token.
        assert seg.count("[") == seg.count("]")
        for token in re.findall(r"\[[^\]]*\]", seg):
            assert token in INLINE
    # No segment boundary falls inside a Latin word that would have fitted in one segment. The
    # segments are the text's own characters in order, so each boundary has a place in it.
    spans, at = [], 0
    for seg in segments:
        start = text.index(seg, at)
        spans.append((start, start + len(seg)))
        at = start + len(seg)
    for (left, right), (_, left_end), (right_start, _) in zip(
        zip(segments, segments[1:]), spans, spans[1:]
    ):
        tail = re.search(r"[A-Za-z]*$", left).group(0)
        head = re.match(r"[A-Za-z]*", right).group(0)
        if tail and head and left_end == right_start:  # nothing between them: one word cut in two
            assert len(tail) + len(head) > limit, (left, right)


def test_split_at_sentence_ends():
    assert split_text("第一句。第二句！Third one. Fourth?") == [
        "第一句。",
        "第二句！",
        "Third one.",
        "Fourth?",
    ]


def test_very_short_text_gets_an_ending_so_it_is_not_cut_off():
    assert finish_segment("你好") == "你好。"
    assert finish_segment("Hi") == "Hi."
    assert finish_segment("你好！") == "你好！"
    assert finish_segment("好的[laugh]") == "好的[laugh]。"
    assert prepare_text("OK").segments == ["OK."]


def test_unknown_tokens_are_removed_with_a_reason():
    text, warnings = clean_control_tokens("你好[uv_break]世界[foo][speed_3][laugh]")
    assert text == "你好[uv_break]世界[laugh]"
    assert len(warnings) == 2
    assert "[foo]" in warnings[0] and "read it aloud" in warnings[0]
    assert "[speed_3]" in warnings[1] and "speed control" in warnings[1]


def test_dictionary_applies_first_longest_and_whole_words(tmp_path):
    d = PronunciationDictionary(tmp_path / "p.json")
    d.set("SQL", "sequel")
    d.set("重庆", "虫庆")
    d.set("重", "众")
    d.save()
    d = PronunciationDictionary(tmp_path / "p.json")
    assert d.apply("sql and MySQL in 重庆很重") == "sequel and MySQL in 虫庆很众"
    prepared = prepare_text("SQL 2 次", d)
    assert prepared.segments == ["sequel 二 次。"]


def test_prepare_runs_dictionary_tokens_normalization_and_splitting_in_order(tmp_path):
    d = PronunciationDictionary(tmp_path / "p.json")
    d.set("AI", "A I")
    prepared = prepare_text("AI 在2024年很火[bogus]。It costs $5", d)
    assert prepared.segments == ["A I 在二零二四年很火。", "It costs five dollars."]
    assert "[bogus]" in prepared.warnings[0]
