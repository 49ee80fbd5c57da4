"""Sentence boundaries (issue 38): sentencex with our rules on top, each with the sentence
that motivated it."""

import pytest

from app.text.prepare import split_text
from app.text.sentences import sentences

CASES = [
    # A list marker alone opens the item after it (the Pragmatic Segmenter's golden rules);
    # a number closing a sentence stays there.
    ("1.) The first item 2.) The second item", ["1.) The first item", "2.) The second item"]),
    ("I scored 5. It was fine.", ["I scored 5.", "It was fine."]),
    # A line that opens a list is cut before each next marker of the list.
    (
        "a. The first item b. The second item c. The third list item",
        ["a. The first item", "b. The second item", "c. The third list item"],
    ),
    ("1. Buy milk 2. Buy eggs 3. Go home", ["1. Buy milk", "2. Buy eggs", "3. Go home"]),
    ("He said a. word b. more", ["He said a. word b. more"]),
    # Dialogue: a closing quote stays with the sentence it closes.
    (
        "他说：“你好吗？”我说：“很好。”然后我们走了。",
        ["他说：“你好吗？”", "我说：“很好。”", "然后我们走了。"],
    ),
    ("她问道：“你是谁？”", ["她问道：“你是谁？”"]),
    ("“Stop!” she shouted.", ["“Stop!” she shouted."]),
    ("“Stop!” He ran to the door.", ["“Stop!”", "He ran to the door."]),
    # A repeated mark is one sentence end, never a segment of its own.
    ("Hello!! Long time no see.", ["Hello!!", "Long time no see."]),
    ("太好了！！我们赢了。", ["太好了！！", "我们赢了。"]),
    # A Chinese sentence closed inside brackets ends at the bracket.
    ("（这是括号里的话。）然后继续。", ["（这是括号里的话。）", "然后继续。"]),
    # An opening quotation keeps its attribution.
    ("“快跑！”他喊道。", ["“快跑！”他喊道。"]),
    ("“你来了？”他抬起头。“我等你很久了。”", ["“你来了？”他抬起头。", "“我等你很久了。”"]),
    # A quoted sentence that ends in an abbreviation still ends at its quote.
    (
        "He said, “I will come at 5 p.m.” Then he left.",
        ["He said, “I will come at 5 p.m.”", "Then he left."],
    ),
    # Abbreviations are not sentence ends.
    ("Please turn to p. 55.", ["Please turn to p. 55."]),
    (
        "They closed the deal with Pitt, Briggs & Co. at noon.",
        ["They closed the deal with Pitt, Briggs & Co. at noon."],
    ),
    ("Were Jane and co. at the party?", ["Were Jane and co. at the party?"]),
    (
        "St. Michael's Church is on 5th st. near the light.",
        ["St. Michael's Church is on 5th st. near the light."],
    ),
    ("他是Dr. Smith的学生。", ["他是Dr. Smith的学生。"]),
    # ... but can end one before a capital.
    ("Let's ask Jane and co. They should know.", ["Let's ask Jane and co.", "They should know."]),
    # An English sentence closed inside brackets ends at the bracket; "approx." never ends one.
    ("(See the appendix.) The results follow.", ["(See the appendix.)", "The results follow."]),
    (
        "He teaches science (He worked as an engineer.) at the University.",
        ["He teaches science (He worked as an engineer.) at the University."],
    ),
    ("The cost was approx. $40. We paid it.", ["The cost was approx. $40.", "We paid it."]),
    # An English sentence then a Chinese one, whatever the last English word.
    ("We left at three p m. 他说再见。", ["We left at three p m.", "他说再见。"]),
    # Punctuation alone is not a sentence.
    ("……", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_sentence_boundaries(text, expected):
    assert sentences(text) == expected


def test_split_text_keeps_the_closing_quote_with_its_sentence():
    assert split_text("她问道：“你是谁？”\n“Stop!” she shouted.") == [
        "她问道：“你是谁？”",
        "“Stop!” she shouted.",
    ]


def test_a_long_sentence_is_not_cut_inside_a_short_quotation():
    text = "He kept saying the words “New York City is great” to everyone he met that day"
    segments = split_text(text, limit=40)
    assert any("“New York City is great”" in s for s in segments), segments
