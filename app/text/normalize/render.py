"""The spoken form of one span our rules found (rules.py), read by the names of its groups."""

from __future__ import annotations

import re

from app.text.normalize import abbreviations as ab
from app.text.normalize import en, written, zh
from app.text.normalize.kinds import Kind
from app.text.normalize.roman import roman_value
from app.text.normalize.rules import (
    _DECADE_WORDS,
    _DIRECTIONS,
    _NUM,
    _YEAR,
    _YEAR_WORDS,
    STREET_TYPES,
)

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


def render(kind: Kind, m: re.Match, lang: str, text: str, partial: bool = False) -> str | None:
    """`m`, a match of `kind`'s pattern in `text`, in words of `lang`; None: not this rule's.
    `partial`: other readers (combined.py) take what their grammars read better."""
    r = zh if lang == "zh" else en
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
        feet, inches = m["feet"], m["inches"]
        if lang == "zh":
            return zh.number(feet) + "英尺" + zh.number(inches) + "英寸"
        inch_word = "inch" if inches == "1" else "inches"
        return f"{en.number(feet)} feet {en.number(inches)} {inch_word}"
    if kind == Kind.POWER:
        base, exponent = m["base"], m["exponent"]
        if lang == "zh":
            return zh.number(base) + "的" + zh.number(exponent) + "次方"
        return f"{en.number(base)} to the power of {en.number(exponent)}"
    if kind == Kind.RESOLUTION:
        if lang == "zh":
            return zh.digits(m["lines"]) + m["scan"].upper()
        return en.house_number(m["lines"]) + " " + m["scan"].lower()
    if kind == Kind.CODE_PLURAL:
        if lang == "zh":
            return None
        digits = m["digits"]
        value = en.number(digits) if len(digits) <= 2 else en.digits(digits)
        return f"{m['letters']} {value} s"
    if kind == Kind.DIMENSION:
        first, second, unit = m["first"], m["second"], m["unit"]
        if lang == "zh":
            return (
                zh.number(first)
                + "乘"
                + zh.number(second)
                + (zh.UNITS.get(unit, unit) if unit else "")
            )
        said = " " + en.UNITS[unit][1] if unit in en.UNITS else (" " + unit if unit else "")
        return en.number(first) + " by " + en.number(second) + said
    if kind == Kind.DASH_CODE:
        a, b = m["head"], m["tail"]
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
            return en.number(m["first"]) + " to"
        # 10-20% is 百分之十到百分之二十: each end of the range is a percentage.
        percent = re.match(_NUM + r"\s?[%％]", text[m.end() :])
        return ("百分之" if percent else "") + zh.number(m["first"]) + "到"
    if kind == Kind.ZH_ORDINAL:  # 第3-5名: 第三到五名
        if lang != "zh":
            return None
        last = m["last"]
        return zh.number(m["first"]) + (("到" + zh.number(last)) if last else "")
    if kind == Kind.CLOCK_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.PER_ZH:
        return "每" if lang == "zh" else None
    if kind == Kind.PER_PERIOD:
        word = _PERIODS[m["period"]]
        return (" per " + word) if lang == "en" else None
    if kind == Kind.TIME_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.PERCENT_RANGE:
        return " to " if lang == "en" else "到"
    if kind == Kind.MONEY_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.ROMAN:
        # Two layouts: after a part word or a ruler, or after any other capitalised name (heir).
        if m["heir"]:
            if not m["heir_numeral"]:
                return None
            part, ruler, numeral = None, m["heir"], m["heir_numeral"]
        else:
            part, ruler, numeral = m["part"], m["ruler"], m["numeral"]
        if not numeral or (
            ruler
            and numeral == "I"
            and not re.match(r"\s*(?:$|[.,;:!?)]|--|of\b)", text[m.end() :])
        ):
            return None  # "Mary I love you": the pronoun
        roman = str(roman_value(numeral))
        name = part or ruler
        if lang == "zh":
            return name + " " + (f"{zh.number(roman)}世" if ruler else zh.number(roman))
        return f"{name} " + (f"the {en.ordinal(roman)}" if ruler else en.number(roman))
    if kind == Kind.CONTEXT_DIGITS:
        value = m["digits"]
        spoken = en.digits(value) if lang == "en" else zh.digits(value, zh.PHONE_DIGITS)
        return m.group(0)[: m.start("digits") - m.start()] + spoken
    if kind == Kind.MODEL:
        digits = m["digits"]
        return (
            m["letters"]
            + (" " if lang == "en" else m["joint"])
            + (en.digits(digits) if lang == "en" else zh.digits(digits, zh.PHONE_DIGITS))
        )
    if kind == Kind.DATE:
        # Two layouts: 2024-05-06 (month, day) and 2024年5月6日 (zh_month, zh_day).
        if m["month"]:
            mo, d = m["month"], m["day"]
        else:
            mo, d = m["zh_month"], m["zh_day"]
        return r.date(m["year"], mo, d)
    if kind == Kind.MDY:
        first, second, year = m["first"], m["second"], m["year"]
        day_first = int(first) > 12 >= int(second)
        mo, d = (second, first) if day_first else (first, second)
        if not (1 <= int(mo) <= 12 and 1 <= int(d) <= 31) or (m["sep"] == "." and len(year) == 2):
            return None  # 1/2/34 is not a date
        if lang == "zh":
            return zh.date(year, mo, d)
        return en.date(year, mo, d, day_first=day_first)
    if kind == Kind.DAY_MONTH:
        first, joint, day, name, y = m["first"], m["joint"], m["day"], m["month"], m["year"]
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
        number, name, street, dot = m["number"], m["name"], m["street"], m["dot"]
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
        month, day, year = m["month"], m["day"], m["year"]
        if lang == "en":
            return en.month_date(month, day, year)
        # "May 5" in Chinese text: 五月五日, as a Chinese reader says a date.
        return zh.date(year, str(en.month_number(month)), day)
    if kind == Kind.TIME:
        # Two layouts: 3:30 (hour, minute, second, half) and 3pm (bare_hour, bare_half).
        if m["bare_hour"]:
            h, mi, sec, half = m["bare_hour"], None, None, m["bare_half"]
        else:
            h, mi, sec, half = m["hour"], m["minute"], m["second"], m["half"]
        if lang == "zh":
            return zh.time(h, mi or "0", sec, half) + _keep_stop(m, text)
        return en.time(h, mi, sec, half) + _keep_stop(m, text)
    if kind == Kind.YEAR_RANGE:
        first, last = m["first"], m["last"]
        if not first or not last or (m["sep"] == "/" and last != str(int(first) + 1)):
            return None  # 2023/2024 (a season) is a range; other years over a slash are not
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
        # Two layouts: v1.2.3 or 1.2.3 (prefix, dotted), and v1.2 (short_prefix, short_dotted).
        if m["dotted"]:
            prefix, dotted = m["prefix"], m["dotted"]
        else:
            prefix, dotted = m["short_prefix"], m["short_dotted"]
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
        # Three layouts: USD 5 (code, code_amount), 5 dollars (word_amount, word), and $5
        # (symbol, amount, then an English scale word or a Chinese zh_scale).
        if m["code"]:
            return r.currency(m["code"], m["code_amount"])
        symbol = m["symbol"]
        if not symbol:
            return r.currency(m["word"], m["word_amount"])
        if lang == "en":
            return None if m["zh_scale"] else en.currency(symbol, m["amount"], m["scale"])
        if m["scale"]:
            return None
        return zh.amount(m["amount"]) + (m["zh_scale"] or "") + zh.CURRENCY.get(symbol, symbol)
    if kind == Kind.TEMPERATURE:
        return r.temperature(m["value"], m["unit"])
    if kind == Kind.PERCENT:
        return r.percent(m["value"])
    if kind == Kind.DECADE_RANGE:
        return " to " if lang == "en" else "至"
    if kind == Kind.DECADE:
        after_range = re.search(r"\d0s\s?[-–]\s?$", text[: m.start()])
        if lang != "en" or (
            m["bare"] and not after_range and _word_before(text, m.start()) not in _DECADE_WORDS
        ):
            return None
        return en.decade(m["short"] or m["full"] or m["bare"] or m["spaced"])
    if kind == Kind.UNIT:
        if partial and (
            text[m.end() : m.end() + 1] == "/"
            or re.search(r"\d-$", text[: m.start() + 1])
            or text[: m.start()].endswith("/")
        ):
            return None  # 12kg/kg, 1234-123kg, 4 1/2 lbs: the grammar reads these
        value, unit = m["value"], m["unit"]
        if lang == "zh" and unit in zh.PER_UNITS and re.search(r"[时秒]速$", text[: m.start()]):
            return zh.amount(value) + zh.PER_UNITS[unit][1]  # 时速10km/h: 时速 says "per hour"
        return r.unit(value, unit)
    if kind == Kind.ORDINAL:
        return r.ordinal(m["value"]) if lang == "en" else zh.ordinal(m["value"])
    if kind == Kind.ZH_CODE:
        return zh.digits(m.group(0), zh.PHONE_DIGITS) if lang == "zh" else None
    if kind == Kind.ZH_YEAR:
        year = m["year"]
        return (
            zh.year(year) if len(year) == 4 or re.match(r"年\d{1,2}月", text[m.end() :]) else None
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
