"""What is written but not a quantity (normalize/written.py and its neighbours in rules.py,
roman.py and render.py): web and mail addresses, symbols on their own, state codes, codes stuck to
letters, sizes, falling dashes, Roman numerals after a name. Each case is a sentence of NeMo's
test files that the program first read wrong (docs/text.md, "held out"), or one that shows
where the rule stops."""

import pytest

from app.text.normalize import normalize
from app.text.normalize.library import library_normalize

ENGLISH = [
    # Web and mail addresses are spelled out: dots, slashes and at said, digits one by one.
    ("a.bc@gmail.com", "a dot B C at gmail dot com"),  # no vowel: spelled
    ("asdf123@abc.com", "asdf one two three at abc dot com"),
    ("Visit test.com today.", "Visit test dot com today."),
    ("Visit example.org.", "Visit example dot org."),  # the full stop closes the sentence
    (
        "https://www.nvidia.com/dgx-basepod",
        "H T T P S colon slash slash W W W dot nvidia dot com slash D G X dash basepod",
    ),
    ("file:///photos/image.jpg", "file colon slash slash slash photos slash image dot jpeg"),
    # e.g., p.m. and a dotted decimal are no address.
    ("Bring fruit, e.g. apples.", "Bring fruit, for example apples."),
    # A symbol on its own is said by its name; money and percentages keep their readings.
    ("$ and 5% or %", "dollar and five percent or percent"),
    ("dfsd#sfgsfd$", "dfsd hash sfgsfd dollar"),
    ("I code in C++ daily.", "I code in C plus plus daily."),
    ("Ages 18+ only.", "Ages eighteen plus only."),
    ("@mypizza", "at mypizza"),
    ("upgrade/update", "upgrade slash update"),
    ("and/or", "and/or"),
    ("Costs ₩460 billion", "Costs four hundred sixty billion won"),
    ("I code in C# and F#.", "I code in C sharp and F sharp."),
    ("R&D at AT&T.", "R and D at AT and T."),
    # A state code closing an address.
    (
        "2788 San Tomas Expy, Santa Clara, CA 95051",
        "twenty seven eighty eight San Tomas Expressway, Santa Clara, California "
        "nine five zero five one",
    ),
    ("123 Smth St, City, NY", "one twenty three Smth Street, City, New York"),
    ("Ask John Smith, MD", "Ask John Smith, MD"),
    # Codes: digits stuck to lowercase letters, after "ending in", a tax-code section.
    ("your otp is ab9453", "your otp is ab nine four five three"),
    ("i can use your card ending in 8876", "i can use your card ending in eight eight seven six"),
    (
        "Our company offers a 401(k) retirement savings plan",
        "Our company offers a four zero one k retirement savings plan",
    ),
    # A phone number with its bracketed area code and an extension; four dotted groups.
    ("(123)-123-5678", "one two three, one two three, five six seven eight"),
    ("123-123-5678-1111", "one two three, one two three, five six seven eight, one one one one"),
    ("987.987.0.40", "nine eight seven dot nine eight seven dot zero dot four zero"),
    ("Call 1-800-555-0199.", "Call one, eight zero zero, five five five, zero one nine nine."),
    # A range of percentages; a height in feet and inches; "Version v2" says version once.
    ("Save 10-20%.", "Save ten to twenty percent."),
    ("He is 6'2\" tall.", "He is six feet two inches tall."),
    ("Version v2.0 released.", "Version two point zero released."),
    # The article before a number and its unit is no model name (A100 is).
    ("A 100m sprint.", "A one hundred meters sprint."),
    # A decimal stuck to letters; a video resolution, said in pairs.
    ("USB3.0", "USB three point zero"),
    ("Watch in 1080p.", "Watch in ten eighty p."),
    ("a = b", "a equals b"),
    ("the 2023/2024 season", "the twenty twenty three to twenty twenty four season"),
    ("Ages 5–12 welcome.", "Ages five to twelve welcome."),  # an en dash between numbers
    # Signs and symbols of mathematics; fractions in one character; rupees and won.
    ("+5", "plus five"),
    ("y=x +1", "y equals x plus one"),
    ("10^6", "ten to the power of six"),
    ("√4", "square root of four"),
    ("π is 3.14", "pi is three point one four"),
    ("1¾ cups", "one and three quarters cups"),
    ("Rs. 500", "five hundred rupees"),
    ("₩1000", "one thousand won"),
    # A decimal without its zero.
    (".1665", "point one six six five"),
    # A size, with its square unit.
    ("2x8 m2", "two by eight square meters"),
    # A falling dash is a code, not a range; a rising one is a range.
    ("978-0", "nine hundred seventy eight zero"),
    ("2-5", "two to five"),
    ("He scored 110-100.", "He scored one hundred ten one hundred."),
    ("FY 2023 budget", "FY twenty twenty three budget"),  # a fiscal year, no model name
    # A decade written with a space before its s.
    ("1980 s", "nineteen eighties"),
    # A number stuck to a letter before it is no unit (W2s is a tax form).
    ("W2s", "W two s"),
    # Roman numerals after a part in capitals, and after a name.
    ("PART XL", "PART forty"),
    ("Sam II", "Sam the second"),
    ("Type II diabetes", "Type two diabetes"),
    ("a mark I made", "a mark I made"),  # a part word in lower case is a plain word
    # I after a name closing the sentence is "the first"; after a word that is no name, I.
    ("Sam I", "Sam the first"),
    ("Francis I--test", "Francis the first--test"),
    ("Not I.", "Not I."),
    ("Mary I love you", "Mary I love you"),
    # A code in the plural: its s is no second.
    ("W26s", "W twenty six s"),
    ("B52s flew", "B fifty two s flew"),
    # A range of percentages written with both signs.
    ("2%-10%", "two percent to ten percent"),
    # Numbers between slashes that are no date: the slash said, long ones digit by digit.
    ("31/31/100", "thirty one slash thirty one slash one hundred"),
]


@pytest.mark.parametrize(("text", "spoken"), ENGLISH)
def test_english_written_forms(text, spoken):
    assert normalize(text, "en") == spoken


CHINESE = [
    # Seven or eight digits with no context word are a quantity (up to 千万).
    ("1001111", "一百万一千一百一十一"),
    # Longer, but counting something (人, 元): a quantity too; with no such word, a code.
    ("人口1412000000人。", "人口十四亿一千二百万人。"),
    ("我的QQ号是123456789。", "我的QQ号是幺二三四五六七八九。"),
    # Money's zero cents are not said.
    ("总价￥1,299.00。", "总价一千二百九十九元。"),
    # A code's context word still reads it digit by digit.
    ("邮编1001111", "邮编幺零零幺幺幺幺"),
    # An address inside Chinese: 点 for the dot.
    ("访问test.com", "访问test点com"),
    ("我的邮箱是abc@163.com。", "我的邮箱是abc at 幺六三点com。"),
    ("涨幅10-20%。", "涨幅百分之十到百分之二十。"),
    ("增长2%-10%", "增长百分之二到百分之十"),
    ("用C++写的程序", "用C加加写的程序"),
    ("5×6=30", "五乘六等于三十"),
    ("1080P的屏幕", "一零八零P的屏幕"),
    ("√2约等于1.414", "根号二约等于一点四一四"),
    ("10^6个", "十的六次方个"),
    ("加入½杯水", "加入二分之一杯水"),
    # Ranges after 第, of seasons, of clock times; a price per what follows; a room after 楼.
    ("第3-5名", "第三到五名"),
    ("2023/2024赛季", "二零二三至二零二四赛季"),
    ("周一至周五9:00-18:00", "周一至周五九点整至十八点整"),
    ("3元/斤", "三元每斤"),
    ("3～5天", "三到五天"),  # a full-width tilde is the tilde of a range
    ("3楼302", "三楼三零二"),
    ("他用的是C#和F#。", "他用的是C sharp和F sharp。"),
    # A symbol inside Chinese is left to the Chinese readers.
    ("比例是5%", "比例是百分之五"),
]


@pytest.mark.parametrize(("text", "spoken"), CHINESE)
def test_chinese_written_forms(text, spoken):
    assert normalize(text, "zh") == spoken


def test_a_text_the_grammar_asserts_on_is_left_as_written():
    # wetext raises AssertionError on "@12" (its grammar leaves nothing to reorder).
    assert library_normalize("@12", "en") == "@12"
    assert normalize("@12", "en") == "at twelve"
