"""English numbers as a person reads them aloud, and sentence ends that are really sentence ends.

Each expected value is how a native speaker says the written form (hyphens become spaces:
ChatTTS turns "-" into a pause). The comment on a row says why, where it is not obvious.
"""

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.text.normalize import normalize
from app.text.prepare import prepare_text, split_text

CASES = [
    # Dates: US month/day order, ISO, a day that can only be a day, and month names.
    ("On 3/5/2024 we met", "On March fifth, twenty twenty four we met"),
    ("On 2024-03-05 we met", "On March fifth, twenty twenty four we met"),
    ("Due 12/25/2024", "Due December twenty fifth, twenty twenty four"),
    ("Due 25/12/2024", "Due the twenty fifth of December twenty twenty four"),  # 25 is no month
    ("Born March 5, 1990", "Born March fifth, nineteen ninety"),
    ("Open Jan. 3 only", "Open January third only"),
    ("Since Sept 11th", "Since September eleventh"),
    # Times: twelve-hour with am/pm, twenty-four-hour, whole hours.
    ("at 3:45 pm", "at three forty five p m"),
    ("at 3pm", "at three p m"),
    ("at 11:05 AM", "at eleven oh five a m"),
    ("at 14:05", "at fourteen oh five"),
    ("at 14:00", "at fourteen hundred"),  # military-style whole hours
    ("at 9:00", "at nine o'clock"),
    ("at 12:00 pm", "at twelve p m"),
    ("at 00:00", "at midnight"),
    # Phone numbers and other digit strings: one digit at a time, a pause between groups.
    ("call 555-1234", "call five five five, one two three four"),
    ("call +1 415 555 0100", "call plus one, four one five, five five five, zero one zero zero"),
    ("call 415.555.0100", "call four one five, five five five, zero one zero zero"),
    ("ZIP 94103", "ZIP nine four one zero three"),
    ("Austin, TX 78701", "Austin, Texas seven eight seven zero one"),
    ("account 12345678901", "account one two three four five six seven eight nine zero one"),
    ("agent 007", "agent zero zero seven"),  # a leading zero is never a quantity
    ("5000000 people", "five million people"),  # a round number is one
    # Decades and years.
    ("the 1990s", "the nineteen nineties"),
    ("the '80s", "the eighties"),
    ("the ’60s", "the sixties"),
    ("in her 20s", "in her twenties"),
    ("wait 20s", "wait twenty seconds"),  # no decade without "the", "her", ...
    ("the 2000s", "the two thousands"),
    ("the 1900s", "the nineteen hundreds"),
    ("in 1990", "in nineteen ninety"),
    ("since 2005", "since two thousand five"),
    ("in 1805", "in eighteen oh five"),
    ("in 2024", "in twenty twenty four"),
    ("from 2019-2020", "from twenty nineteen to twenty twenty"),
    ("2024 people", "two thousand twenty four people"),  # a count, not a year
    # Ordinals.
    ("the 1st", "the first"),
    ("the 22nd", "the twenty second"),
    ("the 103rd", "the one hundred third"),
    # Money.
    ("$4.50", "four dollars and fifty cents"),
    ("$1.01", "one dollar and one cent"),
    ("$0.99", "ninety nine cents"),
    ("$20", "twenty dollars"),
    ("$5 million", "five million dollars"),
    ("$2.5 billion", "two point five billion dollars"),
    ("£3.20", "three pounds and twenty pence"),
    ("€7.05", "seven euros and five cents"),
    ("¥500", "five hundred yen"),  # ¥ in English text is the yen (NeMo's money cases)
    ("¥30 billion", "thirty billion yen"),
    ("￥500", "five hundred yuan"),  # the full-width sign of a Chinese keyboard
    ("RMB100", "one hundred yuan"),
    ("4.50 dollars", "four dollars and fifty cents"),
    ("50¢", "fifty cents"),
    ("1,000 USD", "one thousand dollars"),
    ("pay EUR 4.50", "pay four euros and fifty cents"),
    ("error code 40401", "error code four zero four zero one"),  # a code, not a quantity
    # Decimals, percentages, units.
    ("3.14", "three point one four"),
    ("0.5", "zero point five"),
    ("3.5%", "three point five percent"),
    ("5 km", "five kilometers"),
    ("1 km", "one kilometer"),
    ("3.5 kg", "three point five kilograms"),
    ("10 MB", "ten megabytes"),
    ("72°F", "seventy two degrees Fahrenheit"),
    ("90°", "ninety degrees"),
    ("6 ft", "six feet"),
    # Abbreviations with a dot.
    ("Mr. Smith", "Mister Smith"),
    ("Mrs. Jones", "Missus Jones"),
    ("Dr. Who", "Doctor Who"),
    ("St. Louis", "Saint Louis"),
    ("Main St. is long", "Main Street is long"),
    ("tools, e.g. hammers", "tools, for example hammers"),
    ("tools, i.e. hammers", "tools, that is hammers"),
    ("pears, etc. and more", "pears, et cetera and more"),
    ("pears, etc. Then more", "pears, et cetera. Then more"),  # its dot also ends the sentence
    ("red vs. blue", "red versus blue"),
    ("No. 5", "number five"),
    ("I said no. Fine", "I said no. Fine"),  # not an abbreviation here
    ("at 3 p.m. Then we left", "at three p m. Then we left"),
]


@pytest.mark.parametrize("text, spoken", CASES)
def test_english_is_read_as_a_person_reads_it(text, spoken):
    assert normalize(text, "en") == spoken


def test_the_issue_examples():
    prepared = prepare_text("On 3/5/2024 call 555-1234. The 1990s were fun. Mr. Smith paid $4.50.")
    assert prepared.segments == [
        "On March fifth, twenty twenty four call five five five, one two three four.",
        "The nineteen nineties were fun.",
        "Mister Smith paid four dollars and fifty cents.",
    ]


SPLITS = [
    ("Mr. Smith came. He sat.", ["Mr. Smith came.", "He sat."]),
    ("Ask Dr. Lee, e.g. today. Or Mrs. Li.", ["Ask Dr. Lee, e.g. today.", "Or Mrs. Li."]),
    ("Apples, pears, etc. and so on. Next.", ["Apples, pears, etc. and so on.", "Next."]),
    ("Apples, pears, etc. Then more.", ["Apples, pears, etc.", "Then more."]),
    ("J. R. R. Tolkien wrote it. Yes.", ["J. R. R. Tolkien wrote it.", "Yes."]),
    ("It costs 4.50 now. Or 3.5 later.", ["It costs 4.50 now.", "Or 3.5 later."]),
    ("We saw No. 5 there. Then left.", ["We saw No. 5 there.", "Then left."]),
    ("The U.S. Army came. Then left.", ["The U.S. Army came.", "Then left."]),
]


@pytest.mark.parametrize("text, segments", SPLITS)
def test_sentences_end_at_sentence_ends_not_abbreviations(text, segments):
    assert split_text(text) == segments


NUMBERS = st.one_of(
    st.decimals(min_value=0, max_value=10**6, places=2, allow_nan=False).map(str),
    st.integers(min_value=0, max_value=10**9).map("{:,}".format),
    st.builds("{}:{:02d}".format, st.integers(0, 23), st.integers(0, 59)),
    st.builds("{}.{}".format, st.integers(0, 999), st.integers(0, 999)),
)
# "1,000,000,000": a number longer than the segment limit has to be cut (every segment is at
# most `limit` characters), so the limits drawn start at the longest number drawn.
LONGEST_NUMBER = len(f"{10**9:,}")
WORDS = st.sampled_from(
    [
        "it",
        "costs",
        "Mr.",
        "the",
        "price",
        "and",
        "dollars",
        "kg",
        "。",
        "，",
        "价格",
        "is",
        "e.g.",
        "etc.",
        "Dr.",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(NUMBERS, WORDS), min_size=1, max_size=30),
    st.lists(st.sampled_from([" ", ". ", ", ", "! ", "\n", " "]), min_size=30, max_size=30),
    st.integers(LONGEST_NUMBER, 60),
)
@example(["1,000,000,000"], [" "] * 30, LONGEST_NUMBER)  # exactly as long as the limit
def test_the_splitter_never_cuts_inside_a_number(pieces, gaps, limit):
    text = "".join(p + g for p, g in zip(pieces, gaps))
    numbers = [p for p in pieces if re.fullmatch(r"[\d.,:]+", p)]
    segments = split_text(text, limit=limit)
    for number in numbers:
        assert any(number in s for s in segments), (number, segments)


UNITS = ["dollars", "kilograms", "percent", "cents", "kilometers"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["$4.50", "3.5 kg", "12.75%", "$1,234.56", "7 km", "word", "words", "Mr. Smith", "ok"]
        ),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from([". ", " ", ", "]),
)
def test_a_spoken_price_or_decimal_stays_with_its_unit(pieces, gap):
    """Long sentences are cut to bounded segments; never between a number and its unit
    ("four.\\ndollars" would be read as two sentences)."""
    text = gap.join(pieces) + "."
    for seg in prepare_text(text).segments:
        first = seg.split()[0].strip(".,")
        last = seg.split()[-1].strip(".,")
        assert first not in UNITS and last not in ("point", "and"), prepare_text(text).segments


FUZZ = st.sampled_from(
    list("0123456789.,:-/+$€£¥%°'’ apmMkgstndF年月日万个房路")
    + ["Mr.", "e.g.", "No.", "the ", "in ", "March ", "Jan. ", "U.S.", " pm", "\n", "。", "[laugh]"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(FUZZ, max_size=40).map("".join), st.sampled_from([None, "en", "zh"]))
def test_any_text_normalizes_without_a_digit_left_and_glue_changes_only_spaces(text, lang):
    plain = normalize(text, lang)
    assert not any(c in "0123456789" for c in plain), (text, plain)
    assert normalize(text, lang, glue="\xa0").replace("\xa0", " ") == plain.replace("\xa0", " ")
