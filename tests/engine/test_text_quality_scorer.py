"""The benchmark's scorer (bench/text_quality.py) counts only readings that are the same words."""

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "bench" / "text_quality.py"
_spec = importlib.util.spec_from_file_location("text_quality", _PATH)
text_quality = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(text_quality)


def test_an_initialism_spelled_out_is_the_same_words():
    # NeMo writes "1:59 p.m. e.s.t" as "one fifty nine PM EST"; we say the letters E S T.
    assert text_quality.reads_the_same("one fifty nine p m E S T", "one fifty nine PM EST", "en")


def test_other_words_stay_different():
    assert not text_quality.reads_the_same("one fifty nine p m east", "one fifty nine PM EST", "en")
    assert not text_quality.reads_the_same("one three", "thirteen", "en")
    assert not text_quality.reads_the_same("eighty seconds", "eighty S", "en")
