"""Find number-like spans and rewrite each in the language of the text around it."""

from __future__ import annotations

import re

from app.engine.normalize import en, zh

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT_NAMES = sorted(set(zh.UNITS) | set(en.UNITS), key=len, reverse=True)
_YEAR_WORDS = {"in", "since", "year", "by", "until", "from", "of", "before", "after"}

# Order matters: the first pattern that matches at a position wins.
RULES = [
    ("date", re.compile(r"(?<!\d)(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)|年(\d{1,2})月(\d{1,2})[日号])")),
    ("time", re.compile(r"(?<![\d:])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\d:])")),
    ("phone", re.compile(r"(?<![A-Za-z0-9.])(?:\+\d{1,3}[- ]?)?(?:1[3-9]\d{9}|\(\d{3}\)\s?\d{3}-\d{4}|\d{3,4}-\d{3,4}-\d{4})(?!\d)")),
    ("version", re.compile(r"(?<![A-Za-z0-9.])([vV])?(\d+(?:\.\d+){2,3})(?![.\d])|(?<![A-Za-z0-9.])([vV])(\d+\.\d+)(?![.\d])")),
    ("currency", re.compile(r"([$¥€£￥])\s?(" + _NUM + r")|(" + _NUM + r")\s?(USD|RMB|CNY|EUR)\b")),
    ("temperature", re.compile(r"(-?" + _NUM + r")\s?(°C|℃|°F|℉)")),
    ("percent", re.compile(r"(-?" + _NUM + r")\s?[%％]")),
    ("unit", re.compile(r"(-?" + _NUM + r")\s?(" + "|".join(re.escape(u) for u in _UNIT_NAMES) + r")(?![A-Za-z])")),
    ("ordinal", re.compile(r"(?<![A-Za-z0-9.])(\d+)(st|nd|rd|th)\b")),
    ("zh_year", re.compile(r"(?<!\d)(\d{2,4})(?=年)")),
    ("number", re.compile(r"(?<![A-Za-z0-9.])-(?=\d)" + _NUM + r"|" + _NUM)),
]


def language_of(text: str) -> str:
    """'zh' unless Latin letters clearly dominate (a Chinese word counts for about four letters).
    Text without letters at all (just "618") is read in Chinese, ChatTTS's first language."""
    cjk = len(_CJK.findall(text))
    latin = len(_LATIN.findall(text))
    return "en" if latin and cjk < latin / 4 else "zh"


def _context_language(text: str, start: int, end: int, default: str) -> str:
    """A span with Chinese in it is Chinese; else the script of the nearest letter on either
    side decides; else the whole text's."""
    if _CJK.search(text, start, end):
        return "zh"
    before = text[max(0, start - 12):start].rstrip()
    after = text[end:end + 12].lstrip()
    for ch in (before[-1:] if before else "", after[:1]):
        if ch and _CJK.match(ch):
            return "zh"
    for ch in (before[-1:] if before else "", after[:1]):
        if ch and _LATIN.match(ch):
            return "en"
    for side in (before[::-1], after):
        for ch in side:
            if _CJK.match(ch):
                return "zh"
            if _LATIN.match(ch):
                return "en"
    return default


def _render(kind: str, m: re.Match, lang: str, text: str) -> str:
    r = zh if lang == "zh" else en
    g = m.groups()
    if kind == "date":
        y, mo, d = (g[0], g[1], g[2]) if g[1] else (g[0], g[3], g[4])
        return r.date(y, mo, d)
    if kind == "time":
        return r.time(g[0], g[1], g[2])
    if kind == "phone":
        return r.phone(m.group(0))
    if kind == "version":
        prefix, dotted = (g[0], g[1]) if g[1] else (g[2], g[3])
        return r.version(prefix or "", dotted.split("."))
    if kind == "currency":
        return r.currency(g[0], g[1]) if g[0] else r.currency(g[3], g[2])
    if kind == "temperature":
        return r.temperature(g[0], g[1])
    if kind == "percent":
        return r.percent(g[0])
    if kind == "unit":
        return r.unit(g[0], g[1])
    if kind == "ordinal":
        return r.ordinal(g[0]) if lang == "en" else zh.ordinal(g[0])
    if kind == "zh_year":
        return zh.year(g[0])
    value = m.group(0)
    if lang == "en" and value.isdigit() and len(value) == 4 and 1100 <= int(value) <= 2099:
        words = re.findall(r"[A-Za-z]+", text[max(0, m.start() - 10):m.start()])
        if words and words[-1].lower() in _YEAR_WORDS:
            return en.year(value)
    if lang == "zh":
        return zh.counted(value, text[m.end():], text[:m.start()])
    return r.number(value)


def normalize(text: str, lang: str | None = None) -> str:
    """Rewrite every number-like span into words; everything else is left as it is."""
    default = lang or language_of(text)
    out: list[str] = []
    pos = 0
    while pos < len(text):
        best = None
        for kind, pattern in RULES:
            m = pattern.search(text, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                best = (kind, m)
        if best is None:
            break
        kind, m = best
        span_lang = _context_language(text, m.start(), m.end(), default)
        spoken = _render(kind, m, span_lang, text)
        before = text[pos:m.start()]
        # Keep words apart in English ("5kg" -> "five kilograms"); Chinese needs no spaces.
        if span_lang == "en" and before and before[-1].isalnum():
            spoken = " " + spoken
        nxt = text[m.end():m.end() + 1]
        if span_lang == "en" and nxt and (nxt.isalnum() or _CJK.match(nxt)):
            spoken += " "
        out.append(before + spoken)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)
