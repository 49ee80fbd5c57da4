"""Find number-like spans and rewrite each in the language of the text around it."""

from __future__ import annotations

import re

from app.engine.text.normalize import abbreviations as ab
from app.engine.text.normalize import en, written, zh

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT_NAMES = sorted(set(zh.UNITS) | set(en.UNITS), key=len, reverse=True)
_YEAR_WORDS = (
    {
        "in",
        "since",
        "year",
        "by",
        "until",
        "from",
        "of",
        "before",
        "after",
        "during",
        "born",
        "circa",
        "around",
        "early",
        "late",
        "mid",
        "summer",
        "winter",
        "spring",
        "autumn",
        "fall",
        "q",  # Q1 2024 (the quarter's digit is not a word)
        "fy",
    }
    | {m.lower() for m in en.MONTHS}
    | {m[:3].lower() for m in en.MONTHS}
)
_DECADE_WORDS = {"the", "her", "his", "their", "my", "your", "our", "its", "early", "mid", "late"}
_MONTH_NAMES = "|".join(
    sorted(
        {m for name in en.MONTHS for m in (name, name[:3] + r"\.?", name.upper())}
        | {
            m
            for name in en.MONTHS
            if name not in ("May", "March")
            for m in (name.lower(), name[:3].lower() + r"\.?", name[:3].upper())
        },
        key=len,
        reverse=True,
    )
).replace("Sep\\.?", "Sept?\\.?")
_YEAR = r"(?:1[1-9]\d\d|20\d\d)"
_CURRENCY_WORDS = r"dollars?|euros?|pounds?|USD|RMB|CNY|EUR|GBP|JPY"
_SCALE = (
    r"(?:\s?(thousand|million|billion|trillion|bn|mn|[kKmMbB])(?![A-Za-z])|(万亿|千万|百万|万|亿))?"
)

# A number read digit by digit because of the word before it: 验证码4396, 邮编100084,
# room 304, code 4821, Call 911 (tests/engine/test_normalize_combined.py).
_DIGIT_CONTEXT = (
    r"(?:验证码|校验码|邮编|邮政编码|密码|工号|学号|编号|房间号?|电话|手机号?|号码|拨打|"
    r"\b(?:[Cc]ode|PIN|[Rr]oom|ZIP|[Zz]ip|[Pp]hone|[Cc]all|[Dd]ial|[Ee]xtension|[Ee]xt\.|[Nn]umber|"
    r"OTP|otp|[Ee]nding in|[Ee]nds in))"
    r"(?:\s?(?:is|was|:|：|是|为)?\s?)"
)
# A model number (RTX 4090, GTX 1080 Ti, A100) is a name: its digits are read one by one.
# "A 100m sprint": the article, a number and its unit are no model.
_MODEL = (
    r"(?<![A-Za-z])(?!(?:AD|BC|CE|BCE|FY|USD|EUR|GBP|JPY|RMB|CNY|HKD)(?![A-Za-z]))(?![AI] )"
    r"([A-Z]{1,5})([ -]?)(\d{3,5})(?!\d|[.,:/]\d|%)"
)

# A street address (1428 Elm St., 708 N 1st St): the number in pairs, as a year is said
# (fourteen twenty eight), the direction and the street type in full.
STREET_TYPES = {
    "st": "Street",
    "ave": "Avenue",
    "rd": "Road",
    "blvd": "Boulevard",
    "ln": "Lane",
    "dr": "Drive",
    "ct": "Court",
    "pl": "Place",
    "sq": "Square",
    "expy": "Expressway",
    "hwy": "Highway",
    "pkwy": "Parkway",
    "street": "Street",
    "avenue": "Avenue",
    "road": "Road",
    "boulevard": "Boulevard",
    "lane": "Lane",
    "drive": "Drive",
    "court": "Court",
    "place": "Place",
    "square": "Square",
    "terrace": "Terrace",
    "way": "Way",
    "highway": "Highway",
}
_DIRECTIONS = {"N": "North", "S": "South", "E": "East", "W": "West"}
ADDRESS = re.compile(
    r"(?<![\d.,$])(\d{1,5})\s((?:[NSEW]\s)?(?:\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z]+)(?:\s[A-Z][a-z]+)?)\s"
    r"(" + "|".join(k.capitalize() + "|" + k for k in STREET_TYPES) + r")(?![A-Za-z])(\.)?"
)


# Roman numerals where a reader expects one: a numbered part (Chapter IV, World War II) is
# read as a number, a ruler (Henry VIII, Louis XIV) as "the eighth".
_PART_WORDS = [
    "Chapter",
    "Part",
    "Volume",
    "Vol\\.",
    "Book",
    "Act",
    "Scene",
    "World War",
    "Phase",
    "Section",
    "Episode",
    "Season",
    "Article",
    "Appendix",
    "Round",
    "Type",
    "Class",
    "Level",
    "Grade",
    "Stage",
    "Category",
    "Mark",
    "Model",
    "Title",
    "Tier",
    "Division",
    "Schedule",
    "Step",
    "Unit",
    "Lesson",
    "Page",
    "Table",
    "Figure",
    "Super Bowl",
]
# As written in a title (Part) or in capitals (PART), not in lower case ("a mark I made").
_PARTS = "|".join(_PART_WORDS + [w.upper() for w in _PART_WORDS])
_RULERS = (
    r"Henry|Louis|Elizabeth|George|Edward|Charles|James|William|Richard|John Paul|Benedict|Leo|"
    r"Pius|Peter|Catherine|Philip|Frederick|Ferdinand|Alexander|Nicholas|Mary|Victoria|Ramesses|"
    r"Gregory|Innocent|Clement|Napoleon|Ivan|Wilhelm|Francis"
)
_NUMERAL = r"(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
# Capitalised words before a pronoun I that are no names ("Not I.", "Then I.").
_NOT_NAMES = (
    "Not|Nor|Then|So|And|But|Or|If|Yes|No|Me|As|Than|Even|Only|Neither|Either|Who|Why|What|"
    "Where|How|When|Now|Here|There|Did|Do|Am|Was|Were|Could|Should|Would|Can|Will|May|Must|Have"
)
# Any other capitalised name before a numeral of two letters or more is a ruler or an heir
# (Sam II, John Smith III): "the second".
_ROMAN = re.compile(
    r"\b(?:(" + _PARTS + r")|(" + _RULERS + r"))\s(" + _NUMERAL + r")\b(?!\.\w)"
    r"|\b(?!(?:"
    + _NOT_NAMES
    + r")\b)([A-Z][a-z]+)\s((?=[IVXL]{2}|I\b)"
    + _NUMERAL
    + r")\b(?![.'’]\w)"
)


def roman_value(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
    total = 0
    for a, b in zip(numeral, numeral[1:] + " "):
        total += -values[a] if values.get(b, 0) > values[a] else values[a]
    return total


# Order matters: the first pattern that matches at a position wins.
RULES = [
    ("electronic", written.ELECTRONIC),
    ("state", written.STATE),
    ("roman", _ROMAN),
    ("abbreviation", ab.PATTERN),
    ("context_digits", re.compile(_DIGIT_CONTEXT + r"(\d{3,})(?!\d|[.,:/-]\d)")),
    ("model", re.compile(_MODEL)),
    ("address", ADDRESS),
    (
        "date",
        re.compile(
            r"(?<!\d)(\d{4})(?:[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)|年(\d{1,2})月(\d{1,2})[日号])"
        ),
    ),
    # 3/5/2024 is March 5th (US order); 25/12/2024 can only be the 25th of December;
    # 11/17/05 and 01.10.2010 too (a dotted date has a four-digit year).
    ("mdy", re.compile(r"(?<![\d/.])(\d{1,2})([/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d/]|\.\d)")),
    (
        "month_date",
        re.compile(
            r"\b(" + _MONTH_NAMES + r")\s(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s(" + _YEAR + r"))?(?!\d)"
        ),
    ),
    # 26th May, 3 March 2024, 5-7 May: the day before its month.
    (
        "day_month",
        re.compile(
            r"(?<![\d.,/-])(?:(\d{1,2})(?:st|nd|rd|th)?\s?(-|–|\sto\s|\sand\s)\s?)?"
            r"(\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(" + _MONTH_NAMES + r")(?![A-Za-z])"
            r"(?:,?\s(" + _YEAR + r")(?!\d))?"
        ),
    ),
    (
        "time",
        re.compile(
            r"(?<![\d:])([01]?\d|2[0-3])[:：]([0-5]\d)(?:[:：]([0-5]\d))?(?![\d:])"
            r"(?:\s?([AaPp])\.?[Mm]\.?(?![A-Za-z]))?"
            r"|(?<![\d:.,])(1[0-2]|0?[1-9])\s?([AaPp])\.?[Mm](?![A-Za-z])\.?"
        ),
    ),
    # 1980-1986 and 1960-80 (a range of years); 1980-1970 kg is a range of a unit.
    (
        "year_range",
        re.compile(
            r"(?<![\d-])("
            + _YEAR
            + r")\s?[-–]\s?("
            + _YEAR
            + r"|\d\d)(?![\d-])(?!\s?(?:"
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z]))"
        ),
    ),
    (
        "phone",
        re.compile(
            r"(?<![A-Za-z0-9.])(?:\+\d{1,3}(?:[ .-]\(?\d{1,4}\)?){2,5}(?![\d.-])"
            r"|(?:\+\d{1,3}[- ]?)?(?:1[3-9]\d{9}|\(\d{3}\)[\s-]?\d{3}-\d{4}|(?:1[-.])?\d{3,4}-\d{3,4}-\d{4}(?:-\d{1,5})?"
            r"|\d{3}\.\d{3}\.\d{4}|0\d{2,3}-\d{7,8}|\d{3}-\d{4}(?![\d-])))(?!\d)"
        ),
    ),
    # 127.0.0.1: an address, each part digit by digit (1.2.3.4, starting below 10, is a version).
    (
        "ip",
        re.compile(r"(?<![A-Za-z\d.])(?=[1-9]\d)(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)"),
    ),
    (
        "version",
        re.compile(
            r"(?<![A-Za-z0-9.])([vV])?(\d+(?:\.\d+){2,3})(?![.\d])|(?<![A-Za-z0-9.])([vV])(\d+\.\d+)(?![.\d])"
        ),
    ),
    (
        "currency",
        re.compile(
            r"([$¥€£￥])\s?("
            + _NUM
            + r"|\.\d+)"
            + _SCALE
            + r"|("
            + _NUM
            + r")\s?("
            + _CURRENCY_WORDS
            + r"|¢)(?![A-Za-z])|(?<![A-Za-z])(USD|EUR|GBP|JPY|RMB|CNY)\s?("
            + _NUM
            + r")"
        ),
    ),
    ("temperature", re.compile(r"(-?" + _NUM + r")\s?(°C|℃|°F|℉|°)")),
    # 2%-10% is a range of percentages.
    ("percent_range", re.compile(r"(?<=\d[%％])\s?[-–~～]\s?(?=-?\d)")),
    ("percent", re.compile(r"(-?" + _NUM + r")\s?[%％]")),
    # 1980s, '80s, 80s; 1980 s (a space before the s) only for 1910-2090, not a round hundred.
    (
        "decade",
        re.compile(
            r"(?<![\d.,])(?:['’](\d0)|((?:1[1-9]|20)\d0)|([1-9]0))s(?![A-Za-z])"
            r"|(?<![\d.,])((?:19|20)[1-9]0) s(?![A-Za-z])"
        ),
    ),
    # 2-3 mins, 5~10公里: a range of a unit.
    (
        "unit_range",
        re.compile(
            r"(?<![\d.,-])("
            + _NUM
            + r")\s?[-–~～]\s?(?="
            + _NUM
            + r"\s?(?:(?:"
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z])|[%％]))"
        ),
    ),
    (
        "unit",
        re.compile(
            r"(?<![A-Za-z])(?<![A-Za-z]-)((?:(?<![A-Za-z0-9])-)?"
            + _NUM
            + r")\s?("
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z])"
        ),
    ),
    ("ordinal", re.compile(r"(?<![A-Za-z0-9.])(\d+)(st|nd|rd|th)\b")),
    # Chinese codes read digit by digit: 302房间, 302路, G1234次, CA1234航班.
    (
        "zh_code",
        re.compile(
            r"(?<![\d.])\d{3,}(?=房间|房|室|路|次|号房|号楼|栋|航班)|(?<=[A-Z])\d{3,}(?![\d.])"
        ),
    ),
    ("zh_year", re.compile(r"(?<!\d)(\d{2,4})(?=年)")),
    # 第2名 is 第二名: an ordinal, never 两.
    ("zh_ordinal", re.compile(r"(?<=第)\d+(?![\d.,])")),
    # $20/mo, $350/yr: a price per period.
    ("per_period", re.compile(r"(?<=[\d$])/(mo|month|yr|year|wk|week|d|day|hr|hour)\b")),
    # 2pm-5pm is a range of times.
    (
        "time_range",
        re.compile(r"(?<=[\dmM.])\s?[-–]\s?(?=(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?[AaPp]\.?[Mm])"),
    ),
    # $50.00-$100.00 is a range of prices.
    ("money_range", re.compile(r"(?<=\d)\s?[-–]\s?(?=[$¥€£￥]\d)")),
    # 1960s-80s is a range of decades; mid-1980s is not minus anything.
    ("decade_range", re.compile(r"(?<=\d0s)\s?[-–]\s?(?=['’]?\d0s|(?:1[1-9]|20)\d0s)")),
    ("slashed", written.SLASHED),
    ("section", written.SECTION),
    ("letter_code", written.LETTER_CODE),
    # 6'2" is six feet two inches.
    ("height", re.compile(r"(?<![\w'’])([4-7])['’′]\s?(\d|1[01])(?:\"|”|″|'')(?!\w)")),
    # W2s, B52s: a code in the plural (tax forms, planes), its s no second.
    ("code_plural", re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,3})(\d{1,4})s(?![A-Za-z0-9])")),
    # 2x8 is two by eight (a size); 2x alone is a multiplier.
    (
        "dimension",
        re.compile(
            r"(?<![A-Za-z0-9.])(" + _NUM + r")\s?[x×]\s?(" + _NUM + r")(?![\d.,]|[A-Za-z]{2})"
            r"(?:\s?(" + "|".join(re.escape(u) for u in _UNIT_NAMES) + r")(?![A-Za-z0-9]))?"
        ),
    ),
    # 978-0 falls: not a range (that rises) nor a score (small numbers): a code, its dash silent.
    ("dash_code", re.compile(r"(?<![\d.,/-])(\d{3,})\s?-\s?(\d+)(?![\d,/-]|\.\d)")),
    # 1,250 is one quantity, whoever reads it (wetext drops its first word).
    ("grouped", re.compile(r"(?<![\d.,])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,]|\.\d|st|nd|rd|th)")),
    # Digits that are not a quantity: 007, 0100, ZIP 94103, an account number.
    (
        "digits",
        re.compile(
            r"(?<![\d.,])(?:0\d+|\d{7,})(?![\d.,])"
            r"|(?:(?<=ZIP )|(?<=zip )|(?<=ZIP: )|(?<=code )|(?<=, [A-Z]{2} )|(?<=, [A-Z]{2}, ))\d{5}(?:-\d{4})?(?![\d.,])"
        ),
    ),
    (
        "number",
        re.compile(
            r"(?<![A-Za-z0-9.])-?\.\d+|(?<![A-Za-z0-9.])-(?=\d)" + _NUM + r"|(?<!\d)" + _NUM
        ),
    ),
    ("symbol", written.SYMBOL),
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


def _render(kind: str, m: re.Match, lang: str, text: str, partial: bool = False) -> str | None:
    r = zh if lang == "zh" else en
    g = m.groups()
    if kind == "electronic":
        return written.electronic(m.group(0), lang)
    if kind == "symbol":
        return written.symbol(m, lang, text)
    if kind == "state":
        return written.state(m, lang)
    if kind == "slashed":
        return written.slashed(m, lang)
    if kind == "section":
        return written.section(m, lang)
    if kind == "letter_code":
        return written.letter_code(m, lang)
    if kind == "height":
        if lang == "zh":
            return zh.number(g[0]) + "英尺" + zh.number(g[1]) + "英寸"
        inches = "inch" if g[1] == "1" else "inches"
        return f"{en.number(g[0])} feet {en.number(g[1])} {inches}"
    if kind == "code_plural":
        if lang == "zh":
            return None
        value = en.number(g[1]) if len(g[1]) <= 2 else en.digits(g[1])
        return f"{g[0]} {value} s"
    if kind == "dimension":
        if lang == "zh":
            return (
                zh.number(g[0])
                + "乘"
                + zh.number(g[1])
                + (zh.UNITS.get(g[2], g[2]) if g[2] else "")
            )
        unit = " " + en.UNITS[g[2]][1] if g[2] in en.UNITS else (" " + g[2] if g[2] else "")
        return en.number(g[0]) + " by " + en.number(g[1]) + unit
    if kind == "dash_code":
        a, b = g
        if int(b) >= int(a) or (b[0] == "0" and b != "0") or re.fullmatch(_YEAR, a):
            return None  # 2-5, 100-200: a range
        if lang == "zh":
            return zh.number(a) + "杠" + zh.number(b)
        return en.number(a) + " " + en.number(b)
    if kind == "abbreviation":
        if partial and m.group(0).lower() in ("a.m.", "p.m."):
            return None  # the time grammar reads 3 p.m.
        return ab.expand(m.group(0), text[: m.start()], text[m.end() :])
    if kind == "unit_range":
        if lang == "en":
            return en.number(g[0]) + " to"
        # 10-20% is 百分之十到百分之二十: each end of the range is a percentage.
        percent = re.match(_NUM + r"\s?[%％]", text[m.end() :])
        return ("百分之" if percent else "") + zh.number(g[0]) + "到"
    if kind == "zh_ordinal":
        return zh.number(m.group(0)) if lang == "zh" else None
    if kind == "per_period":
        word = _PERIODS[g[0]]
        return (" per " + word) if lang == "en" else None
    if kind == "time_range":
        return " to " if lang == "en" else "至"
    if kind == "percent_range":
        return " to " if lang == "en" else "到"
    if kind == "money_range":
        return " to " if lang == "en" else "至"
    if kind == "roman":
        if g[3]:
            if not g[4]:
                return None
            g = (None, g[3], g[4])
        if not g[2] or (
            g[1] and g[2] == "I" and not re.match(r"\s*(?:$|[.,;:!?)]|--|of\b)", text[m.end() :])
        ):
            return None  # "Mary I love you": the pronoun
        value = roman_value(g[2])
        name = g[0] or g[1]
        if lang == "zh":
            return name + " " + (f"{zh.number(str(value))}世" if g[1] else zh.number(str(value)))
        return f"{name} " + (f"the {en.ordinal(str(value))}" if g[1] else en.number(str(value)))
    if kind == "context_digits":
        value = g[-1]
        spoken = en.digits(value) if lang == "en" else zh.digits(value, zh.PHONE_DIGITS)
        return m.group(0)[: m.start(len(g)) - m.start()] + spoken
    if kind == "model":
        return (
            g[0]
            + (" " if lang == "en" else g[1])
            + (en.digits(g[2]) if lang == "en" else zh.digits(g[2], zh.PHONE_DIGITS))
        )
    if kind == "date":
        y, mo, d = (g[0], g[1], g[2]) if g[1] else (g[0], g[3], g[4])
        return r.date(y, mo, d)
    if kind == "mdy":
        day_first = int(g[0]) > 12 >= int(g[2])
        mo, d = (g[2], g[0]) if day_first else (g[0], g[2])
        if not (1 <= int(mo) <= 12 and 1 <= int(d) <= 31) or (g[1] == "." and len(g[3]) == 2):
            return None  # 1/2/34 is not a date
        if lang == "zh":
            return zh.date(g[3], mo, d)
        return en.date(g[3], mo, d, day_first=day_first)
    if kind == "day_month":
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
    if kind == "address":
        if lang != "en":
            return None
        number, name, street, dot = g
        words = [
            _DIRECTIONS.get(w, en.ordinal(w[:-2]) if w[:1].isdigit() else w) for w in name.split()
        ]
        end = ("." if ab._starts_sentence(text[m.end() :]) else "") if dot else ""
        return " ".join([en.house_number(number), *words, STREET_TYPES[street.lower()]]) + end
    if kind == "ip":
        parts = m.group(0).split(".")
        return (
            " dot ".join(en.digits(p) for p in parts)
            if lang == "en"
            else "点".join(zh.digits(p) for p in parts)
        )
    if kind == "month_date":
        if lang == "en":
            return en.month_date(g[0], g[1], g[2])
        # "May 5" in Chinese text: 五月五日, as a Chinese reader says a date.
        return zh.date(g[2], str(en.month_number(g[0])), g[1])
    if kind == "time":
        if g[4]:
            h, mi, sec, half = g[4], None, None, g[5]
        else:
            h, mi, sec, half = g[0], g[1], g[2], g[3]
        if lang == "zh":
            return zh.time(h, mi or "0", sec, half) + _keep_stop(m, text)
        return en.time(h, mi, sec, half) + _keep_stop(m, text)
    if kind == "year_range":
        if len(g[1]) == 2:  # 1960-80: the end is a later year of that century
            if int(g[1]) <= int(g[0][2:]):
                return None
            return (
                f"{en.year(g[0])} to {en.number(g[1])}"
                if lang == "en"
                else f"{zh.year(g[0])}至{zh.year(g[1])}"
            )
        return en.year_range(g[0], g[1]) if lang == "en" else f"{zh.year(g[0])}至{zh.year(g[1])}"
    if kind == "phone":
        return r.phone(m.group(0))
    if kind == "version":
        prefix, dotted = (g[0], g[1]) if g[1] else (g[2], g[3])
        day, month = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
        if not prefix and re.fullmatch(
            rf"(?:1[1-9]|20)\d\d\.{month}\.{day}|{day}\.{month}\.(?:1[1-9]|20)\d\d|"
            rf"{month}\.{day}\.(?:1[1-9]|20)\d\d",
            dotted,
        ):
            return None  # 2008.08.08, 01.10.2010: dates
        if lang == "en" and re.search(r"[Vv]ersion\s*$", text[: m.start()]):
            prefix = ""  # "Version v2.0": the word is there already
        return r.version(prefix or "", dotted.split("."))
    if kind == "currency":
        if g[6]:
            return r.currency(g[6], g[7])
        if not g[0]:
            return r.currency(g[5], g[4])
        if lang == "en":
            return None if g[3] else en.currency(g[0], g[1], g[2])
        if g[2]:
            return None
        return zh.amount(g[1]) + (g[3] or "") + zh.CURRENCY.get(g[0], g[0])
    if kind == "temperature":
        return r.temperature(g[0], g[1])
    if kind == "percent":
        return r.percent(g[0])
    if kind == "decade_range":
        return " to " if lang == "en" else "至"
    if kind == "decade":
        after_range = re.search(r"\d0s\s?[-–]\s?$", text[: m.start()])
        if lang != "en" or (
            g[2] and not after_range and _word_before(text, m.start()) not in _DECADE_WORDS
        ):
            return None
        return en.decade(g[0] or g[1] or g[2] or g[3])
    if kind == "unit":
        if partial and (
            text[m.end() : m.end() + 1] == "/"
            or re.search(r"\d-$", text[: m.start() + 1])
            or text[: m.start()].endswith("/")
        ):
            return None  # 12kg/kg, 1234-123kg, 4 1/2 lbs: the grammar reads these
        if lang == "zh" and g[1] in zh.PER_UNITS and re.search(r"[时秒]速$", text[: m.start()]):
            return zh.amount(g[0]) + zh.PER_UNITS[g[1]][1]  # 时速10km/h: 时速 says "per hour"
        return r.unit(g[0], g[1])
    if kind == "ordinal":
        return r.ordinal(g[0]) if lang == "en" else zh.ordinal(g[0])
    if kind == "zh_code":
        return zh.digits(m.group(0), zh.PHONE_DIGITS) if lang == "zh" else None
    if kind == "zh_year":
        return (
            zh.year(g[0]) if len(g[0]) == 4 or re.match(r"年\d{1,2}月", text[m.end() :]) else None
        )
    if kind == "digits":
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
            m = upcoming.get(kind, False)
            if m is False or (m is not None and (m.start() < pos or (kind, m.start()) in declined)):
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
            if kind == "abbreviation"
            else _context_language(
                text, *(m.span(m.lastindex) if kind == "context_digits" else m.span()), default
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
        if glue != " " and kind != "abbreviation":
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
