"""Chapter headings in plain text: a short line of its own such as "Chapter 1", "CHAPTER ONE",
"Part IV: The Return", "Prologue" or "第一章 出发", "第12回", "楔子".

A heading line must be short and must not read as a sentence, so "Chapter 1 was the longest
of them all." stays text.
"""

from __future__ import annotations

import re

_NUMBER_WORD = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
)
_NUMBER = rf"(?:\d{{1,4}}|[ivxlcdm]{{1,8}}|{_NUMBER_WORD}(?:[- ]{_NUMBER_WORD}){{0,3}})"
_ENGLISH = re.compile(
    rf"^(?:(?:chapter|part|book|volume|act|scene)\s+{_NUMBER}\b\.?(?:\s*[:.\-–—]\s*|\s+)?(?P<title>.*)"
    r"|(?:prologue|epilogue|preface|introduction|foreword|afterword|interlude)(?:\s*[:.\-–—]\s*(?P<t2>.*))?)$",
    re.IGNORECASE,
)
_CHINESE = re.compile(
    r"^(?:第\s*[0-9０-９零〇一二三四五六七八九十百千两]{1,8}\s*[章节回卷部篇集幕](?:[\s:：、.．]*)(?P<title>.*)"
    r"|(?:序章|序言|序|前言|楔子|引子|尾声|后记|终章|番外)(?:[\s:：、]+(?P<t2>.*))?)$"
)
MAX_HEADING_CHARS = 80
_SENTENCE_END = "。！？!?.,;，；"


def is_heading(line: str) -> bool:
    line = line.strip()
    if not line or len(line) > MAX_HEADING_CHARS:
        return False
    m = _ENGLISH.match(line) or _CHINESE.match(line)
    if m is None:
        return False
    title = (m.group("title") or m.group("t2") or "").strip()
    # "Chapter 1." is a heading; "Chapter 1 was long." is a sentence about one.
    if title and title[-1] in _SENTENCE_END and len(title.split()) > 3:
        return False
    return len(title) <= 60
