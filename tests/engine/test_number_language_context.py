"""Which language a number is read in, in mixed text (pipeline._context_language's rule): a
span with Chinese in it is Chinese; else a Chinese character right beside it, then a Latin
letter right beside it, then the nearest letter within 12 characters (before, then after);
else the language of the whole text. Chosen so the whole text's language says otherwise."""

import pytest

from app.engine.text.normalize import normalize
from app.engine.text.normalize.pipeline import language_of


@pytest.mark.parametrize("text, whole, spoken", [
    # Mostly Chinese, but the word right before the number is English.
    ("这是一段很长的中文句子，其中写着 page 12 .", "zh", "page twelve ."),
    # A Chinese neighbour wins over a Latin one on the other side.
    ("abcdefghijkl 12 中", "en", "abcdefghijkl 十二 中"),
    ("中 12 abcdefghijkl", "en", "中 十二 abcdefghijkl"),
    # No letter beside it: the nearest one before, then after, within 12 characters.
    ("abc -- 12 -- 中文", "zh", "abc -- twelve -- 中文"),
    ("一二三四五六 -- 12 -- abc", "zh", "一二三四五六 -- 十二 -- abc"),
    ("中文中文。。。。。。。。。。。。。 12 -- abc", "zh", "twelve -- abc"),
])
def test_the_nearest_script_decides(text, whole, spoken):
    assert language_of(text) == whole
    assert normalize(text).endswith(spoken)


@pytest.mark.parametrize("lang, spoken", [("en", "twelve"), ("zh", "十二")])
def test_without_any_letter_the_texts_language_decides(lang, spoken):
    assert normalize("-- 12 --", lang=lang) == f"-- {spoken} --"


@pytest.mark.parametrize("text, whole", [("abcd中", "zh"), ("abcde中", "en")])
def test_a_chinese_character_weighs_four_letters(text, whole):
    # Latin must outweigh the Chinese more than four to one for the text to be English.
    assert language_of(text) == whole


@pytest.mark.parametrize("text, lang, spoken", [
    ("1990-2000年间", "zh", "一九九零至二零零零年间"),          # Chinese years digit by digit, 至 between
    ("排名 3rd 的选手", "zh", "排名 第三 的选手"),
    ("14:00开会", "zh", "十四点整开会"),
    ("USD 5的费用", "zh", "五美元的费用"),
    ("$5万的预算", "zh", "五万美元的预算"),
    ("in 1100 we", "en", "in eleven hundred we"),             # years in pairs, 1100 to 2099
    ("in 2099 we", "en", "in twenty ninety nine we"),
    ("in 2100 we", "en", "in two thousand one hundred we"),
    ("In 1990 we", "en", "In nineteen ninety we"),            # the word before may be capitalised
    ("at 14:05:30 we", "en", "at fourteen oh five and thirty seconds we"),
])
def test_each_kind_of_number_in_its_language(text, lang, spoken):
    assert normalize(text, lang=lang) == spoken


@pytest.mark.parametrize("text, spoken", [
    ("abc 中文 -- 12 --", "abc 中文 -- 十二 --"),     # the nearest letter on the left is 文, not a
    ("12 !", "十二 !"),                               # nothing on either side: the text's language
])
def test_the_nearest_letter_wins_and_an_empty_side_counts_for_nothing(text, spoken):
    assert normalize(text, lang="zh") == spoken
