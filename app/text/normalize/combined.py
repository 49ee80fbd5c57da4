"""The normalizer the program uses: our rules where they read better, wetext's grammars for
the rest, each number in the language of the text around it.

1. Our rules of `OURS` (chosen by bench/text_quality.py, docs/text.md) rewrite their spans.
2. The text is cut into runs of one language; in each, short windows around what is left
   (fractions, scores, ranges, sums, plain numbers) go through wetext's grammar of that language.
3. Our full rules read whatever is still left (a window wetext could not parse).
"""

from __future__ import annotations

import re
import unicodedata

from app.text.normalize import pipeline
from app.text.normalize.kinds import Kind

# Where our rules read better than wetext's grammars (bench/text_quality.py, docs/text.md):
# money, codes and model numbers, decades, units, years in Chinese, 第2名, dates, times.
OURS = frozenset(
    {
        Kind.ELECTRONIC,
        Kind.SYMBOL,
        Kind.STATE,
        Kind.SLASHED,
        Kind.SECTION,
        Kind.LETTER_CODE,
        Kind.DASH_CODE,
        Kind.DIMENSION,
        Kind.CLOCK_RANGE,
        Kind.PER_ZH,
        Kind.POWER,
        Kind.RESOLUTION,
        Kind.CODE_PLURAL,
        Kind.PERCENT_RANGE,
        Kind.HEIGHT,
        Kind.ROMAN,
        Kind.ABBREVIATION,
        Kind.ADDRESS,
        Kind.CONTEXT_DIGITS,
        Kind.MODEL,
        Kind.CURRENCY,
        Kind.DECADE,
        Kind.ZH_CODE,
        Kind.UNIT_RANGE,
        Kind.UNIT,
        Kind.ZH_ORDINAL,
        Kind.VERSION,
        Kind.PHONE,
        Kind.PERCENT,
        Kind.TEMPERATURE,
        Kind.PER_PERIOD,
        Kind.MONEY_RANGE,
        Kind.DECADE_RANGE,
        Kind.GROUPED,
        Kind.MONTH_DATE,
        Kind.DAY_MONTH,
        Kind.IP,
        Kind.DIGITS,
        Kind.ZH_YEAR,
        Kind.YEAR_RANGE,
        Kind.DATE,
        Kind.MDY,
        Kind.TIME,
        Kind.TIME_RANGE,
    }
)
# An English ordinal inside Chinese (排名 3rd 的选手): the grammars leave "三rd"; ours say 第三.
_WRITTEN = frozenset(
    {Kind.ELECTRONIC, Kind.SYMBOL, Kind.STATE, Kind.SLASHED, Kind.SECTION, Kind.LETTER_CODE}
)
OURS_IN_CHINESE = frozenset({Kind.ORDINAL})
_LETTER = re.compile(r"[A-Za-z]")
_CURRENCY_CODES = {"USD", "EUR", "GBP", "JPY", "HKD", "RMB", "CNY", "AUD", "CAD", "CHF", "SGD"}
# Ours in English: a year, a minus sign, a round thousand (the grammar says 1000 "ten hundred").
_YEARISH = re.compile(r"-\d|(?:1[1-9]|20)\d\d$|[1-9]000$")


def _ours(kind: Kind, span_lang: str, m: re.Match) -> bool:
    letters = re.search(r"[A-Za-z]+$", m.string[: m.start()]) if kind == Kind.NUMBER else None
    if letters and "." in m.group(0):
        # USB3.0: the grammar reads "three.zero" after letters; not after a currency (HKD13.5).
        return letters.group(0).upper() not in _CURRENCY_CODES
    if kind == Kind.NUMBER and m.string[m.start() - 1 : m.start()] == ".":
        return False  # .1665: the grammar reads a decimal without its zero
    if kind == Kind.NUMBER and span_lang == "en":  # "2024 people" is a count, -7 is minus seven
        if re.match(r"[A-Za-z]", m.string[m.end() :]):
            return False  # 1000th: the grammar's ordinal
        return bool(_YEARISH.match(m.group(0)))
    if kind == Kind.DIGITS:  # 007, an account number; not 08 of 2008-08-08 or 01:00
        return not re.search(r"[-:/.：]$", m.string[: m.start()]) and not re.match(
            r"[-:/.：]\d", m.string[m.end() :]
        )
    if kind == Kind.CURRENCY and re.search(r"[A-Z]$", m.string[: m.start()]):
        return False  # A$, HK$, US$: the grammars know these dollars
    if kind in OURS:
        return True
    return kind in OURS_IN_CHINESE and span_lang == "zh" and bool(_LETTER.search(m.group(0)))


_CJK = pipeline._CJK
_LATIN = pipeline._LATIN
# Short Latin letters stuck to a number belong to it (5G, 3.5kg, HKD13.5): a unit or a code.
_STUCK = re.compile(r"(?<=\d)[A-Za-z]{1,4}(?![A-Za-z])|(?<![A-Za-z])[A-Z]{1,3}(?=[$¥€£]?\d)")
# wetext's English grammar refuses runs of spaces and reads across line ends: give it one
# line, one space at a time.
_EN_SPACES = re.compile(r"(\s{2,}|\n|\r)")
_NUMBER_WORDS = {
    "zero",
    "oh",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "billion",
    "trillion",
    "point",
    "and",
    "minus",
    "first",
    "second",
    "third",
    "fifth",
    "eighth",
    "ninth",
    "twelfth",
    "twentieth",
    "thirtieth",
    "hundredth",
    "thousandth",
}


def _labels(text: str, default: str) -> list[str]:
    """The language each character is read in."""
    labels: list[str | None] = [None] * len(text)
    stuck = {i for m in _STUCK.finditer(text) for i in range(*m.span())}
    for i, ch in enumerate(text):
        if _CJK.match(ch):
            labels[i] = "zh"
        elif _LATIN.match(ch) and i not in stuck:
            labels[i] = "en"
    i = 0
    while i < len(text):
        if labels[i] is not None:
            i += 1
            continue
        j = i
        while j < len(text) and labels[j] is None:
            j += 1
        number = re.search(r"\d[\d.,:/]*", text[i:j])
        if number:
            # Decided as our rules decide it for the number itself; a number with letters
            # stuck to it (HKD13.5, O2O) by the text around all of them.
            a, b = (
                (i, j)
                if any(k in stuck for k in range(i, j))
                else (i + number.start(), i + number.end())
            )
            lang = pipeline._context_language(text, a, b, default)
        else:
            lang = (labels[i - 1] if i else (labels[j] if j < len(text) else None)) or default
        for k in range(i, j):
            labels[k] = lang
        i = j
    return labels  # type: ignore[return-value]


def runs(text: str, default: str) -> list[tuple[str, str]]:
    """(language, piece) in order; the pieces join back to `text`."""
    out: list[tuple[str, str]] = []
    for ch, lang in zip(text, _labels(text, default)):
        if out and out[-1][0] == lang:
            out[-1] = (lang, out[-1][1] + ch)
        else:
            out.append((lang, ch))
    return out


def _library(piece: str, lang: str) -> str:
    from app.text.normalize.library import library_normalize

    if lang == "en":
        return "".join(
            part if _EN_SPACES.fullmatch(part) else library_normalize(part, "en")
            for part in _EN_SPACES.split(piece)
            if part
        )
    return library_normalize(piece, "zh")


# What the grammars read: digits.
_TRIGGER = {"zh": re.compile(r"\d"), "en": re.compile(r"\d")}
# A window stops at a clause end: its reading never depends on the next clause.
_CLAUSE_END = {
    "zh": re.compile(r"[，。；！？、,;!?\n]"),
    "en": re.compile(r"[;!?\n]|\.(?=\s+[A-Z\"“])"),
}
_REACH = {"zh": 6, "en": 12}  # characters of context on each side (a month name, 比分, 第)


def _windows(piece: str, lang: str) -> list[tuple[int, int]]:
    """Spans of `piece` around what the grammar reads, with their context, merged."""
    spans: list[tuple[int, int]] = []
    for m in _TRIGGER[lang].finditer(piece):
        start, end = max(0, m.start() - _REACH[lang]), min(len(piece), m.end() + _REACH[lang])
        ends = [e.end() for e in _CLAUSE_END[lang].finditer(piece, start, m.start())]
        start = ends[-1] if ends else start
        stop = _CLAUSE_END[lang].search(piece, m.end(), end)
        end = stop.start() if stop else end
        if lang == "en":  # whole words only
            while start > 0 and piece[start - 1].isalnum():
                start -= 1
            while end < len(piece) and piece[end].isalnum():
                end += 1
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


def _read_windows(piece: str, lang: str) -> str:
    """`piece` with each window read by the grammar (only these pay for it: about 2 ms a call)."""
    out, at = [], 0
    for start, end in _windows(piece, lang):
        out.append(piece[at:start])
        out.append(_library(piece[start:end], lang))
        at = end
    out.append(piece[at:])
    return "".join(out)


def _glue(spoken: str, glue: str) -> str:
    """Join the words of one spoken number, and the word after it, with `glue`, so the
    splitter keeps them together (as pipeline.normalize does with its own spans)."""
    if glue == " ":
        return spoken
    return re.sub(
        r"\b([a-z]+) (?=[A-Za-z])",
        lambda m: m.group(1) + (glue if m.group(1) in _NUMBER_WORDS else " "),
        spoken,
    )


# ½, 1¾: a fraction in one character is written out (1 3/4) for the readers of fractions.
_VULGAR = re.compile(r"(?P<whole>\d?)(?P<fraction>[\u00bc-\u00be\u2150-\u215e])")


# 5–12, 3～5天: an en dash or a full-width tilde between numbers is the hyphen or tilde of a
# range to the grammars (five to twelve, 三到五天).
_EN_DASH = re.compile(r"(?<=\d)\s?([–～〜])\s?(?=\d)")


def _vulgar(m: re.Match) -> str:
    fraction = unicodedata.normalize("NFKC", m["fraction"]).replace("\u2044", "/")
    return m["whole"] + (" " if m["whole"] else "") + fraction


def normalize(text: str, lang: str | None = None, glue: str = " ") -> str:
    default = lang or pipeline.language_of(text)
    text = _VULGAR.sub(_vulgar, text)
    text = _EN_DASH.sub(lambda m: "-" if m.group(1) == "–" else "~", text)
    text = pipeline.normalize(text, default, glue, kinds=_ours)
    out = []
    for run_lang, piece in runs(text, default):
        if _TRIGGER[run_lang].search(piece):
            try:
                piece = _read_windows(piece, run_lang)
                piece = _glue(piece, glue) if run_lang == "en" else piece
            except Exception:
                pass
        out.append(piece)
    # What step 1 read as written (addresses, symbols) is not read again once numbers are
    # words around it ("p m.est" is no address).
    return pipeline.normalize("".join(out), default, glue, skip=_WRITTEN)
