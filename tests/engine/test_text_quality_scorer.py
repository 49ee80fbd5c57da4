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


def test_every_accepted_reading_names_a_case_of_its_yardstick_and_gives_a_reason():
    # An accepted reading (bench/data/text/accepted.jsonl) that names no case would count nothing.
    import json

    cases = {
        (name, source): right
        for name, _lang, _hint, pairs in text_quality.yardsticks()
        for source, right in (p if isinstance(p[1], list) else p[1] for p in pairs)
    }
    lines = (text_quality.DATA / "accepted.jsonl").read_text(encoding="utf-8").splitlines()
    for case in (json.loads(line) for line in lines if line.strip()):
        assert (case["yardstick"], case["input"]) in cases, case
        assert case["why"].strip(), case
        # Only readings that differ from the file's: an accepted reading never hides a match.
        lang = "zh" if case["yardstick"].startswith("wetext_zh") else "en"
        expected = cases[(case["yardstick"], case["input"])]
        assert not any(text_quality.reads_the_same(case["reading"], r, lang) for r in expected)
