"""Which language a number is read in, in mixed text (pipeline._context_language's rule): a
span with Chinese in it is Chinese; else a Chinese character right beside it, then a Latin
letter right beside it, then the nearest letter within 12 characters (before, then after);
else the language of the whole text. Chosen so the whole text's language says otherwise."""

import pytest

from app.text.normalize import normalize
from app.text.normalize.pipeline import language_of


@pytest.mark.parametrize(
    "text, whole, spoken",
    [
        # Mostly Chinese, but the word right before the number is English.
        ("这是一段很长的中文句子，其中写着 page 12 .", "zh", "page twelve ."),
        # A Chinese neighbour wins over a Latin one on the other side.
        ("abcdefghijkl 12 中", "en", "abcdefghijkl 十二 中"),
        ("中 12 abcdefghijkl", "en", "中 十二 abcdefghijkl"),
        # No letter beside it: the nearest one before, then after, within 12 characters.
        ("abc -- 12 -- 中文", "zh", "abc -- twelve -- 中文"),
        ("一二三四五六 -- 12 -- abc", "zh", "一二三四五六 -- 十二 -- abc"),
        ("中文中文。。。。。。。。。。。。。 12 -- abc", "zh", "twelve -- abc"),
    ],
)
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


@pytest.mark.parametrize(
    "text, lang, spoken",
    [
        (
            "1990-2000年间",
            "zh",
            "一九九零至二零零零年间",
        ),  # Chinese years digit by digit, 至 between
        ("排名 3rd 的选手", "zh", "排名 第三 的选手"),
        ("14:00开会", "zh", "十四点整开会"),
        ("USD 5的费用", "zh", "五美元的费用"),
        ("$5万的预算", "zh", "五万美元的预算"),
        ("in 1100 we", "en", "in eleven hundred we"),  # years in pairs, 1100 to 2099
        ("in 2099 we", "en", "in twenty ninety nine we"),
        ("in 2100 we", "en", "in twenty one hundred we"),
        ("In 1990 we", "en", "In nineteen ninety we"),  # the word before may be capitalised
        ("at 14:05:30 we", "en", "at fourteen hours five minutes and thirty seconds we"),
    ],
)
def test_each_kind_of_number_in_its_language(text, lang, spoken):
    assert normalize(text, lang=lang) == spoken


@pytest.mark.parametrize(
    "text, spoken",
    [
        ("abc 中文 -- 12 --", "abc 中文 -- 十二 --"),  # the nearest letter on the left is 文, not a
        ("12 !", "十二 !"),  # nothing on either side: the text's language
    ],
)
def test_the_nearest_letter_wins_and_an_empty_side_counts_for_nothing(text, spoken):
    assert normalize(text, lang="zh") == spoken


@pytest.mark.parametrize(
    "text, spoken",
    [
        # The Latin letter right beside the number decides, not the Chinese one just behind it.
        ("这是中文句子中a 12", "这是中文句子中a twelve"),
        # No letter right beside it: the scan outward meets the "a" before the "中".
        ("这是中文句子中a, 12", "这是中文句子中a, twelve"),
    ],
)
def test_the_nearest_letter_decides_even_with_chinese_one_further_away(text, spoken):
    assert language_of(text) == "zh"
    assert normalize(text) == spoken


@pytest.mark.parametrize(
    "text, spoken",
    [
        # In Chinese text an English month date is said as a Chinese date: month, then day (日),
        # the year first and digit by digit as Chinese years are.
        ("他在日记里写 May 5 到了", "他在日记里写 五月五日 到了"),
        ("会议定在 Sept. 10, 2024 举行", "会议定在 二零二四年九月十日 举行"),
        ("他说 Jan 31st 是截止日", "他说 一月三十一日 是截止日"),
        # A day before its month too, a range of days as Chinese says one.
        ("活动在 5-7 May 举行", "活动在 五月五日至七日 举行"),
        ("他 26th May 那天到的", "他 五月二十六日 那天到的"),
        # In English text it stays English: the month, then the ordinal day.
        ("He wrote May 5 there", "He wrote May fifth there"),
    ],
)
def test_a_month_date_is_read_in_the_language_around_it(text, spoken):
    assert normalize(text) == spoken
