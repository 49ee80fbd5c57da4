"""Find number-like spans and rewrite each in the language of the text around it."""

from __future__ import annotations

import re

from app.text.normalize import abbreviations as ab
from app.text.normalize import en, written, zh
from app.text.normalize.kinds import Kind
from app.text.normalize.rules import (
    _CJK,
    _DECADE_WORDS,
    _DIRECTIONS,
    _LATIN,
    _NUM,
    _YEAR,
    _YEAR_WORDS,
    RULES,
    STREET_TYPES,
    roman_value,
)


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
    before = text[max(0, start - 12) : start].rstrip()
    after = text[end : end + 12].lstrip()
    # The next sentence is not this number's context ("at 3:30 pm. 他说" is English).
    if text[end - 1 : end] in ".!?" or after[:1] in (".", "!", "?", "。", "！", "？"):
        after = ""
    stop = max(before.rfind(". "), before.rfind("。"), before.rfind("！"), before.rfind("？"))
    if stop != -1:
        before = before[stop + 1 :].rstrip()
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


# A time zone after a time goes on the sentence ("2:30 p.m. EST"), as a capital word would not.
_TIME_ZONE = re.compile(r"\s*(?:[A-Z]{2,3}T|UTC|GMT|(?:[A-Za-z]\.){2}[A-Za-z]\.?)(?![A-Za-z])")


def _keep_stop(m: re.Match, text: str) -> str:
    """A dot the match swallowed ("3 p.m.") that also ended the sentence stays."""
    if _TIME_ZONE.match(text, m.end()):
        return ""
    return "." if m.group(0).endswith(".") and ab._starts_sentence(text[m.end() :]) else ""


_COUNTED = re.compile(
    r"\s?(?!(?:was|is|has|does|as|this|its|his|us|was)\b)[a-z]+s\b"
    r"|\s?(?:people|men|women|children|of)\b"
)
_EXPRESSION_BEFORE = re.compile(r"(?:[/:+×÷=^*<>]|\d\s?[-–~～])\s?$")
_EXPRESSION_AFTER = re.compile(r"\s?(?:[/:+×÷=^*<>]|[-–~～]\s?)\s?\d")


def _in_expression(text: str, start: int, end: int) -> bool:
    """Is the number part of 3:2, 1/2, 2-3, 1+2 (a score, fraction, range or sum)?"""
    return bool(
        _EXPRESSION_BEFORE.search(text[max(0, start - 3) : start])
        or _EXPRESSION_AFTER.match(text, end)
    )


def _word_before(text: str, start: int) -> str:
    words = re.findall(r"[A-Za-z]+", text[max(0, start - 12) : start])
    return words[-1].lower() if words else ""


_PERIODS = {
    "mo": "month",
    "month": "month",
    "yr": "year",
    "year": "year",
    "wk": "week",
    "week": "week",
    "d": "day",
    "day": "day",
    "hr": "hour",
    "hour": "hour",
}


def _render(kind: Kind, m: re.Match, lang: str, text: str, partial: bool = False) -> str | None:
    r = zh if lang == "zh" else en
    g = m.groups()
    if kind == Kind.ELECTRONIC:
        return written.electronic(m.group(0), lang)
    if kind == Kind.EQUALS:
        return written.equals(m.group(0), lang)
    if kind == Kind.SYMBOL:
        return written.symbol(m, lang, text)
    if kind == Kind.STATE:
        return written.state(m, lang)
    if kind == Kind.SLASHED:
        return written.slashed(m, lang)
    if kind == Kind.SECTION:
        return written.section(m, lang)
    if kind == Kind.LETTER_CODE:
        return written.letter_code(m, lang)
    if kind == Kind.HEIGHT:
        if lang == "zh":
            return zh.number(g[0]) + "英尺" + zh.number(g[1]) + "英寸"
        inches = "inch" if g[1] == "1" else "inches"
        return f"{en.number(g[0])} feet {en.number(g[1])} {inches}"
    if kind == Kind.POWER:
        if lang == "zh":
            return zh.number(g[0]) + "的" + zh.number(g[1]) + "次方"
        return f"{en.number(g[0])} to the power of {en.number(g[1])}"
    if kind == Kind.RESOLUTION:
        if lang == "zh":
            return zh.digits(g[0]) + g[1].upper()
        return en.house_number(g[0]) + " " + g[1].lower()
    if kind == Kind.CODE_PLURAL:
        if lang == "zh":
            return None
        value = en.number(g[1]) if len(g[1]) <= 2 else en.digits(g[1])
        return f"{g[0]} {value} s"
    if kind == Kind.DIMENSION:
        if lang == "zh":
            return (
                zh.number(g[0])
                + "乘"
                + zh.number(g[1])
                + (zh.UNITS.get(g[2], g[2]) if g[2] else "")
            )
        unit = " " + en.UNITS[g[2]][1] if g[2] in en.UNITS else (" " + g[2] if g[2] else "")
        return en.number(g[0]) + " by " + en.number(g[1]) + unit
    if kind == Kind.DASH_CODE:
        a, b = g
        if int(b) >= int(a) or (b[0] == "0" and b != "0") or re.fullmatch(_YEAR, a):
            return None  # 2-5, 100-200: a range
        if lang == "zh":
            return zh.number(a) + "杠" + zh.number(b)
        return en.number(a) + " " + en.number(b)
    if kind == Kind.ABBREVIATION:
        if partial and m.group(0).lower() in ("a.m.", "p.m."):
            return None  # the time grammar reads 3 p.m.
        return ab.expand(m.group(0), text[: m.start()], text[m.end() :])
    if kind == Kind.UNIT_RANGE:
        if lang == "en":
            return en.number(g[0]) + " to"
        # 10-20% is 百分之十到百分之二十: each end of the range is a percentage.
        percent = re.match(_NUM + r"\s?[%％]", text[m.end() :])
        return ("百分之" if percent else "") + zh.number(g[0]) + "到"
    if kind == Kind.ZH_ORDINAL:  # 第3-5名: 第三到五名
        if lang != "zh":
            return None
        return zh.number(g[0]) + (("到" + zh.number(g[1])) if g[1] else "")
    if kind == Kind.CLOCK_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.PER_ZH:
        return "每" if lang == "zh" else None
    if kind == Kind.PER_PERIOD:
        word = _PERIODS[g[0]]
        return (" per " + word) if lang == "en" else None
    if kind == Kind.TIME_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.PERCENT_RANGE:
        return " to " if lang == "en" else "到"
    if kind == Kind.MONEY_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.ROMAN:
        if g[3]:
            if not g[4]:
                return None
            g = (None, g[3], g[4])
        if not g[2] or (
            g[1] and g[2] == "I" and not re.match(r"\s*(?:$|[.,;:!?)]|--|of\b)", text[m.end() :])
        ):
            return None  # "Mary I love you": the pronoun
        roman = str(roman_value(g[2]))
        name = g[0] or g[1]
        if lang == "zh":
            return name + " " + (f"{zh.number(roman)}世" if g[1] else zh.number(roman))
        return f"{name} " + (f"the {en.ordinal(roman)}" if g[1] else en.number(roman))
    if kind == Kind.CONTEXT_DIGITS:
        value = g[-1]
        spoken = en.digits(value) if lang == "en" else zh.digits(value, zh.PHONE_DIGITS)
        return m.group(0)[: m.start(len(g)) - m.start()] + spoken
    if kind == Kind.MODEL:
        return (
            g[0]
            + (" " if lang == "en" else g[1])
            + (en.digits(g[2]) if lang == "en" else zh.digits(g[2], zh.PHONE_DIGITS))
        )
    if kind == Kind.DATE:
        y, mo, d = (g[0], g[1], g[2]) if g[1] else (g[0], g[3], g[4])
        return r.date(y, mo, d)
    if kind == Kind.MDY:
        day_first = int(g[0]) > 12 >= int(g[2])
        mo, d = (g[2], g[0]) if day_first else (g[0], g[2])
        if not (1 <= int(mo) <= 12 and 1 <= int(d) <= 31) or (g[1] == "." and len(g[3]) == 2):
            return None  # 1/2/34 is not a date
        if lang == "zh":
            return zh.date(g[3], mo, d)
        return en.date(g[3], mo, d, day_first=day_first)
    if kind == Kind.DAY_MONTH:
        first, joint, day, name, y = g
        month = en.month_number(name)
        if not month or not all(1 <= int(d) <= 31 for d in (first, day) if d):
            return None
        if lang == "zh":  # 5-7 May: 五月五日至七日
            if first:
                return (
                    zh.date(y, str(month), first)
                    + ("和" if "and" in joint else "至")
                    + zh.number(str(int(day)))
                    + "日"
                )
            return zh.date(y, str(month), day)
        spoken = en.day_month(day, name, y) + _keep_stop(m, text)
        if first:  # 5-7 May: the fifth to the seventh of May
            spoken = (
                f"the {en.ordinal(str(int(first)))} {'and' if 'and' in joint else 'to'} {spoken}"
            )
        return spoken[len("the ") :] if re.search(r"\bthe\s$", text[: m.start()]) else spoken
    if kind == Kind.ADDRESS:
        if lang != "en":
            return None
        number, name, street, dot = g
        words = [
            _DIRECTIONS.get(w, en.ordinal(w[:-2]) if w[:1].isdigit() else w) for w in name.split()
        ]
        end = ("." if ab._starts_sentence(text[m.end() :]) else "") if dot else ""
        return " ".join([en.house_number(number), *words, STREET_TYPES[street.lower()]]) + end
    if kind == Kind.IP:
        parts = m.group(0).split(".")
        return (
            " dot ".join(en.digits(p) for p in parts)
            if lang == "en"
            else "点".join(zh.digits(p) for p in parts)
        )
    if kind == Kind.MONTH_DATE:
        if lang == "en":
            return en.month_date(g[0], g[1], g[2])
        # "May 5" in Chinese text: 五月五日, as a Chinese reader says a date.
        return zh.date(g[2], str(en.month_number(g[0])), g[1])
    if kind == Kind.TIME:
        if g[4]:
            h, mi, sec, half = g[4], None, None, g[5]
        else:
            h, mi, sec, half = g[0], g[1], g[2], g[3]
        if lang == "zh":
            return zh.time(h, mi or "0", sec, half) + _keep_stop(m, text)
        return en.time(h, mi, sec, half) + _keep_stop(m, text)
    if kind == Kind.YEAR_RANGE:
        if not g[0] or not g[2] or (g[1] == "/" and g[2] != str(int(g[0]) + 1)):
            return None  # 2023/2024 (a season) is a range; other years over a slash are not
        first, last = g[0], g[2]
        if len(last) == 2:  # 1960-80: the end is a later year of that century
            if int(last) <= int(first[2:]):
                return None
            return (
                f"{en.year(first)} to {en.number(last)}"
                if lang == "en"
                else f"{zh.year(first)}至{zh.year(last)}"
            )
        return en.year_range(first, last) if lang == "en" else f"{zh.year(first)}至{zh.year(last)}"
    if kind == Kind.PHONE:
        return r.phone(m.group(0))
    if kind == Kind.VERSION:
        prefix, dotted = (g[0], g[1]) if g[1] else (g[2], g[3])
        day_re, month_re = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
        if not prefix and re.fullmatch(
            rf"(?:1[1-9]|20)\d\d\.{month_re}\.{day_re}|{day_re}\.{month_re}\.(?:1[1-9]|20)\d\d|"
            rf"{month_re}\.{day_re}\.(?:1[1-9]|20)\d\d",
            dotted,
        ):
            return None  # 2008.08.08, 01.10.2010: dates
        if lang == "en" and re.search(r"[Vv]ersion\s*$", text[: m.start()]):
            prefix = ""  # "Version v2.0": the word is there already
        return r.version(prefix or "", dotted.split("."))
    if kind == Kind.CURRENCY:
        if g[6]:
            return r.currency(g[6], g[7])
        if not g[0]:
            return r.currency(g[5], g[4])
        if lang == "en":
            return None if g[3] else en.currency(g[0], g[1], g[2])
        if g[2]:
            return None
        return zh.amount(g[1]) + (g[3] or "") + zh.CURRENCY.get(g[0], g[0])
    if kind == Kind.TEMPERATURE:
        return r.temperature(g[0], g[1])
    if kind == Kind.PERCENT:
        return r.percent(g[0])
    if kind == Kind.DECADE_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.DECADE:
        after_range = re.search(r"\d0s\s?[-–]\s?$", text[: m.start()])
        if lang != "en" or (
            g[2] and not after_range and _word_before(text, m.start()) not in _DECADE_WORDS
        ):
            return None
        return en.decade(g[0] or g[1] or g[2] or g[3])
    if kind == Kind.UNIT:
        if partial and (
            text[m.end() : m.end() + 1] == "/"
            or re.search(r"\d-$", text[: m.start() + 1])
            or text[: m.start()].endswith("/")
        ):
            return None  # 12kg/kg, 1234-123kg, 4 1/2 lbs: the grammar reads these
        if lang == "zh" and g[1] in zh.PER_UNITS and re.search(r"[时秒]速$", text[: m.start()]):
            return zh.amount(g[0]) + zh.PER_UNITS[g[1]][1]  # 时速10km/h: 时速 says "per hour"
        return r.unit(g[0], g[1])
    if kind == Kind.ORDINAL:
        return r.ordinal(g[0]) if lang == "en" else zh.ordinal(g[0])
    if kind == Kind.ZH_CODE:
        return zh.digits(m.group(0), zh.PHONE_DIGITS) if lang == "zh" else None
    if kind == Kind.ZH_YEAR:
        return (
            zh.year(g[0]) if len(g[0]) == 4 or re.match(r"年\d{1,2}月", text[m.end() :]) else None
        )
    if kind == Kind.DIGITS:
        value = m.group(0)
        if re.fullmatch(r"[1-9]\d{0,2}0{4,}", value) or (
            lang == "zh"
            and value[0] != "0"
            and (len(value) <= 8 or text[m.end() :].startswith((*zh.MEASURE_WORDS, "元")))
        ):
            return None  # 5000000 is a quantity; in Chinese up to 千万 (1001111 一百万...)
        return en.digits(value) if lang == "en" else zh.digits(value, zh.PHONE_DIGITS)
    value = m.group(0)
    if partial and _in_expression(text, m.start(), m.end()):
        return None  # 3:2, 1/2, 2-3, 1+2: the grammar reads these
    if lang == "en" and value.isdigit() and len(value) == 4 and 1100 <= int(value) <= 2099:
        # "in 1994", and a year that opens a sentence ("2012 was good"), not "2024 people".
        opens = not re.search(r"[A-Za-z0-9]", text[max(0, m.start() - 3) : m.start()])
        if (_word_before(text, m.start()) in _YEAR_WORDS or opens) and not _COUNTED.match(
            text, m.end()
        ):
            return en.year(value)
    if lang == "zh":
        return zh.counted(value, text[m.end() :], text[: m.start()])
    return r.number(value)


def normalize(
    text: str, lang: str | None = None, glue: str = " ", kinds=None, skip=frozenset()
) -> str:
    """Rewrite every number-like span into words; everything else is left as it is. `kinds`
    (default: all) is a set of rule kinds, or a test `kinds(kind, span_lang, match)`: a span it
    refuses is left for the next reader (combined.py).
    `glue` joins the words of one spoken span and the word right after it (its unit or what
    it counts): the splitter never cuts at a non-breaking space, so "four dollars" stays whole."""
    default = lang or language_of(text)
    out: list[str] = []
    declined: set[tuple[str, int]] = set()  # a rule that matched but said "not mine"
    # Each rule's next match, searched again only once the reading has passed its start: the
    # text does not change, so no earlier match can appear (the preview runs this per keystroke).
    upcoming: dict[str, re.Match | None] = {}
    pos = 0
    while pos < len(text):
        best = None
        for kind, pattern in RULES:
            if (isinstance(kinds, (set, frozenset)) and kind not in kinds) or kind in skip:
                continue
            m = upcoming.get(kind)
            if kind not in upcoming or (
                m is not None and (m.start() < pos or (kind, m.start()) in declined)
            ):
                m = pattern.search(text, pos)
                while m and (kind, m.start()) in declined:
                    m = pattern.search(text, m.start() + 1)
                upcoming[kind] = m
            if m and m.end() > m.start() and (best is None or m.start() < best[1].start()):
                best = (kind, m)
        if best is None:
            break
        kind, m = best
        span_lang = (
            "en"
            if kind == Kind.ABBREVIATION
            else _context_language(
                text,
                *(m.span(m.lastindex or 0) if kind == Kind.CONTEXT_DIGITS else m.span()),
                default,
            )
        )
        if callable(kinds) and not kinds(kind, span_lang, m):
            spoken = None
        else:
            spoken = _render(kind, m, span_lang, text, partial=kinds is not None)
        if spoken is None:
            declined.add((kind, m.start()))
            continue
        before, end = text[pos : m.start()], m.end()
        # Keep words apart in English ("5kg" -> "five kilograms"); Chinese needs no spaces.
        if span_lang == "en" and before and before[-1].isalnum():
            spoken = " " + spoken
        elif span_lang == "en" and not before and out and out[-1][-1:].isalnum():
            spoken = " " + spoken if spoken[:1].isalnum() else spoken  # $12@12%: dollars at
        nxt = text[end : end + 1]
        if (
            span_lang == "en"
            and nxt
            and (nxt.isalnum() or _CJK.match(nxt))
            and not spoken.endswith(" ")
        ):
            spoken += " "
        if glue != " " and kind != Kind.ABBREVIATION:
            lead, trail = (
                spoken[: len(spoken) - len(spoken.lstrip(" "))],
                spoken[len(spoken.rstrip(" ")) :],
            )
            spoken = lead + spoken.strip(" ").replace(" ", glue) + trail
            if not trail and re.match(r" [A-Za-z]", text[end : end + 2]):
                spoken += glue
                end += 1
        out.append(before + spoken)
        pos = end
    out.append(text[pos:])
    return "".join(out)
