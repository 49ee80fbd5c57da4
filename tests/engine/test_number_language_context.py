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
