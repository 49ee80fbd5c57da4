"""The normalizer the program uses (issue 38): our rules and WeTextProcessing's grammars, each
where it reads better, every number in the language around it. Each case is a sentence the
issue names, or one that shows a rule."""

import subprocess
import sys

import pytest

from app.text.normalize import normalize
from app.text.prepare import prepare_text

ENGLISH = [
    # Years read as years, dates with ordinals.
    ("In 1994 he moved.", "In nineteen ninety four he moved."),
    ("2012 was a good year.", "twenty twelve was a good year."),
    ("We met on June 30.", "We met on June thirtieth."),
    ("Born 25 July 2012.", "Born the twenty fifth of July twenty twelve."),
    # The day before its month is read "the ... of" (NeMo's date cases).
    (
        "One should go on the 26th May in the evening",
        "One should go on the twenty sixth of May in the evening",
    ),
    ("Meet me 3rd March.", "Meet me the third of March."),
    ("Open 5-7 May 2024.", "Open the fifth to the seventh of May twenty twenty four."),
    ("on 5 and 6 May", "on the fifth and the sixth of May"),
    # A date with a two-digit year, and a dotted one: in the order written.
    ("Filed 11/17/05.", "Filed November seventeenth, oh five."),
    ("Opened 01.10.2010.", "Opened January tenth, twenty ten."),
    ("Closed 15.01.2020.", "Closed the fifteenth of January twenty twenty."),
    # 1000 is one thousand, not a year's "ten hundred"; 1000th stays an ordinal.
    ("It ran 1000 times.", "It ran one thousand times."),
    ("the 1000th visitor", "the one thousandth visitor"),
    # An address number is said in pairs; a mixed fraction with its unit; cubic units.
    (
        "Nancy lived on 1428 Elm St. It was odd.",
        "Nancy lived on fourteen twenty eight Elm Street. It was odd.",
    ),
    ("They moved to 221 Baker Street.", "They moved to two twenty one Baker Street."),
    # The street's direction and type in full; a ZIP code after its state digit by digit.
    (
        "Send it to 708 N 1st St, San City.",
        "Send it to seven oh eight North first Street, San City.",
    ),
    (
        "2 San Tomas hwy, Santa, FL, 95051",
        "two San Tomas Highway, Santa, Florida, nine five zero five one",
    ),
    ("It weighs 4 1/2 lbs.", "It weighs four and a half pounds."),
    (
        "a volume of 41,459.00 km³",
        "a volume of forty one thousand four hundred fifty nine point zero zero cubic kilometers",
    ),
    ("wind at 5m/s", "wind at five meters per second"),
    # Short time units (NeMo's measure cases), ranges of decades and years.
    ("after 2 wks and 6 mos, not 5 yrs", "after two weeks and six months, not five years"),
    ("wait 1 sec", "wait one second"),
    ("music of the 1960s-80s", "music of the nineteen sixties to eighties"),
    ("in the mid-1980s", "in the mid-nineteen eighties"),
    ("during 1960-80", "during nineteen sixty to eighty"),
    (
        "from 1980-1970 kg",
        "from one thousand nine hundred eighty to one thousand nine hundred seventy kilograms",
    ),
    # An IP address digit by digit; a lower-case dotted time zone as its letters.
    ("Ping 127.0.0.1 now.", "Ping one two seven dot zero dot zero dot one now."),
    ("Update to 1.2.3.4 today.", "Update to one point two point three point four today."),
    ("We met 5 May. Then we left.", "We met the fifth of May. Then we left."),
    ("at 1:59 p.m. e.s.t", "at one fifty nine p m E S T"),
    (
        "Call at 2:30 p.m. EST today.",
        "Call at two thirty p m EST today.",
    ),  # the zone goes on the sentence
    ("It cost $.506 each.", "It cost point five zero six dollars each."),
    # ...but a count stays a count.
    ("Page 12 of 2024 people.", "Page twelve of two thousand twenty four people."),
    # Units, plural abbreviations included.
    ("Wait 5 mins.", "Wait five minutes."),
    ("It takes 2 hrs.", "It takes two hours."),
    ("He lost 3 kgs.", "He lost three kilograms."),
    ("Walk 200 m.", "Walk two hundred meters."),
    # Fractions and ranges (the grammar), Roman numerals.
    ("Add 1/4 cup.", "Add one quarter cup."),
    ("Wait 2-3 mins.", "Wait two to three minutes."),
    ("World War II ended.", "World War two ended."),
    # Money and decades (ours: the grammar says "four point five dollars", "ninety seconds").
    ("It costs $4.50.", "It costs four dollars and fifty cents."),
    ("The 1990s were fun.", "The nineteen nineties were fun."),
    # Digit by digit: from the word before it, or a model number.
    ("Call 911 now.", "Call nine one one now."),
    ("Room 304 is here.", "Room three zero four is here."),
    ("Your code is 4821.", "Your code is four eight two one."),
    ("I bought an RTX 4090.", "I bought an RTX four zero nine zero."),
]

CHINESE = [
    ("比分是3:2。", "比分是三比二。"),
    ("吃了1/2个。", "吃了二分之一个。"),
    ("房子有80㎡。", "房子有八十平方米。"),
    ("验证码4396。", "验证码四三九六。"),
    ("邮编100084。", "邮编幺零零零八四。"),
    ("房间号是1502。", "房间号是幺五零二。"),
    ("他是1998年出生的。", "他是一九九八年出生的。"),
    ("得了第2名。", "得了第二名。"),
    ("走200米。", "走两百米。"),
    # Inside Chinese, a number is read in Chinese, English words around it or not.
    ("现在5G很快。", "现在五G很快。"),
    ("一块RTX 4090显卡。", "一块RTX 四零九零显卡。"),
    ("我用iPhone 15拍的。", "我用iPhone 十五拍的。"),
    ("他说 May 5 到了。", "他说 五月五日 到了。"),
    ("排名 3rd 的选手", "排名 第三 的选手"),
    ("这个包重3.5kg。", "这个包重三点五千克。"),
    # Letters stuck to a number go with it: the text around both decides (not the letters).
    ("价格是HKD13.5", "价格是十三点五港元"),
]


@pytest.mark.parametrize(("text", "spoken"), ENGLISH)
def test_english_reads_right(text, spoken):
    assert normalize(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), CHINESE)
def test_chinese_reads_right(text, spoken):
    assert normalize(text) == spoken


def test_the_next_sentence_is_not_a_numbers_context():
    # "3:30 pm." ends an English sentence: the Chinese one after it does not make it Chinese,
    # and its full stop still ends the sentence.
    assert prepare_text("He paid at 3:30 pm. 他说再见。").segments == [
        "He paid at three thirty p m.",
        "他说再见。",
    ]


def test_mixed_text_keeps_each_numbers_language():
    assert (
        normalize("He said 你好 at 3 pm, 然后买了2斤苹果。")
        == "He said 你好 at three p m, 然后买了两斤苹果。"
    )


def test_the_pronunciation_dictionary_applies_before_the_numbers():
    class Dictionary:
        def apply(self, text):
            return text.replace("RTX 4090", "R T X forty ninety")

    assert (
        prepare_text("I bought an RTX 4090.", Dictionary()).spoken
        == "I bought an R T X forty ninety."
    )


def test_a_grammar_that_cannot_read_a_run_leaves_it_to_our_rules(monkeypatch):
    from app.text.normalize import library

    def broken(text, lang):
        raise AssertionError("the grammar cannot parse this")

    monkeypatch.setattr(library, "library_normalize", broken)
    assert normalize("Add 1/4 cup and 3 eggs.") == "Add one/four cup and three eggs."


def test_loading_the_text_modules_loads_no_grammar():
    # The window imports these at start; wetext's import and FSTs wait for the first number.
    code = (
        "import sys, app.text.prepare, app.text.normalize, app.text.sentences;"
        "print(sorted(m for m in ('wetext', 'kaldifst', 'sentencex') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_a_text_within_the_limit_is_prepared_though_its_spoken_form_is_longer():
    from app.text.prepare import MAX_TEXT_CHARS

    sentence = "Then he paid $4.50 at 3:30 pm. "
    text = sentence * (MAX_TEXT_CHARS // len(sentence))
    segments = prepare_text(text).segments
    assert len("".join(segments)) > MAX_TEXT_CHARS
    assert segments[0] == "Then he paid four dollars and fifty cents at three thirty p m."


def test_finishing_the_model_load_loads_the_grammars(monkeypatch):
    from types import SimpleNamespace

    from app.synthesis.synthesizer import Synthesizer
    from app.text.normalize import library

    monkeypatch.setattr(library, "_normalizers", {})
    Synthesizer.finish_loading(SimpleNamespace(parts=None))
    assert set(library._normalizers) == {"zh", "en"}


@pytest.mark.parametrize(
    ("text", "spoken"),
    [
        ("Chapter IV begins.", "Chapter four begins."),
        ("Henry VIII was king.", "Henry the eighth was king."),
        ("Louis XIV ruled.", "Louis the fourteenth ruled."),
        ("Mary I of England.", "Mary the first of England."),
        ("Mary I love you.", "Mary I love you."),  # the pronoun, not a numeral
        ("Send your CV today.", "Send your CV today."),
    ],
)
def test_roman_numerals_where_a_reader_expects_one(text, spoken):
    assert normalize(text) == spoken
