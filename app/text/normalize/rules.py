"""The patterns that find number-like spans, and the word lists they lean on; the order of
RULES decides which wins where two start at one place (render.py reads what they find, by
the names of their groups)."""

from __future__ import annotations

import re

from app.text.normalize import abbreviations as ab
from app.text.normalize import en, written, zh
from app.text.normalize.kinds import Kind
from app.text.normalize.roman import ROMAN

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
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|[kKmMbB])(?![A-Za-z])"
    r"|(?P<zh_scale>万亿|千万|百万|万|亿))?"
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
    r"(?P<letters>[A-Z]{1,5})(?P<joint>[ -]?)(?P<digits>\d{3,5})(?!\d|[.,:/]\d|%)"
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
    r"(?<![\d.,$])(?P<number>\d{1,5})\s"
    r"(?P<name>(?:[NSEW]\s)?(?:\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z]+)(?:\s[A-Z][a-z]+)?)\s"
    r"(?P<street>" + "|".join(k.capitalize() + "|" + k for k in STREET_TYPES) + r")"
    r"(?![A-Za-z])(?P<dot>\.)?"
)


# Order matters: the first pattern that matches at a position wins.
RULES = [
    (Kind.ELECTRONIC, written.ELECTRONIC),
    (Kind.STATE, written.STATE),
    (Kind.ROMAN, ROMAN),
    (Kind.ABBREVIATION, ab.PATTERN),
    (Kind.CONTEXT_DIGITS, re.compile(_DIGIT_CONTEXT + r"(?P<digits>\d{3,})(?!\d|[.,:/-]\d)")),
    (Kind.MODEL, re.compile(_MODEL)),
    (Kind.ADDRESS, ADDRESS),
    (
        Kind.DATE,
        re.compile(
            r"(?<!\d)(?P<year>\d{4})(?:[-/.](?P<month>\d{1,2})[-/.](?P<day>\d{1,2})(?!\d)"
            r"|年(?P<zh_month>\d{1,2})月(?P<zh_day>\d{1,2})[日号])"
        ),
    ),
    # 3/5/2024 is March 5th (US order); 25/12/2024 can only be the 25th of December;
    # 11/17/05 and 01.10.2010 too (a dotted date has a four-digit year).
    (
        Kind.MDY,
        re.compile(
            r"(?<![\d/.])(?P<first>\d{1,2})(?P<sep>[/.])(?P<second>\d{1,2})(?P=sep)"
            r"(?P<year>\d{4}|\d{2})(?![\d/]|\.\d)"
        ),
    ),
    (
        Kind.MONTH_DATE,
        re.compile(
            r"\b(?P<month>" + _MONTH_NAMES + r")\s(?P<day>\d{1,2})(?:st|nd|rd|th)?\b"
            r"(?:,?\s(?P<year>" + _YEAR + r"))?(?!\d)"
        ),
    ),
    # 26th May, 3 March 2024, 5-7 May: the day before its month.
    (
        Kind.DAY_MONTH,
        re.compile(
            r"(?<![\d.,/-])(?:(?P<first>\d{1,2})(?:st|nd|rd|th)?\s?(?P<joint>-|–|\sto\s|\sand\s)\s?)?"
            r"(?P<day>\d{1,2})(?:st|nd|rd|th)?\s(?:of\s)?(?P<month>"
            + _MONTH_NAMES
            + r")(?![A-Za-z])"
            r"(?:,?\s(?P<year>" + _YEAR + r")(?!\d))?"
        ),
    ),
    (
        Kind.TIME,
        re.compile(
            r"(?<![\d:])(?P<hour>[01]?\d|2[0-3])[:：](?P<minute>[0-5]\d)(?:[:：](?P<second>[0-5]\d))?"
            r"(?![\d:])(?:\s?(?P<half>[AaPp])\.?[Mm]\.?(?![A-Za-z]))?"
            r"|(?<![\d:.,])(?P<bare_hour>1[0-2]|0?[1-9])\s?(?P<bare_half>[AaPp])\.?[Mm](?![A-Za-z])\.?"
        ),
    ),
    # 1980-1986 and 1960-80 (a range of years); 1980-1970 kg is a range of a unit.
    (
        Kind.YEAR_RANGE,
        re.compile(
            r"(?<![\d-])(?P<first>"
            + _YEAR
            + r")\s?(?P<sep>[-–/])\s?(?P<last>"
            + _YEAR
            + r"|\d\d)(?![\d-])(?!\s?(?:"
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z]))"
        ),
    ),
    (
        Kind.PHONE,
        re.compile(
            r"(?<![A-Za-z0-9.])(?:\+\d{1,3}(?:[ .-]\(?\d{1,4}\)?){2,5}(?![\d.-])"
            r"|(?:\+\d{1,3}[- ]?)?(?:1[3-9]\d{9}|\(\d{3}\)[\s-]?\d{3}-\d{4}|(?:1[-.])?\d{3,4}-\d{3,4}-\d{4}(?:-\d{1,5})?"
            r"|\d{3}\.\d{3}\.\d{4}|0\d{2,3}-\d{7,8}|\d{3}-\d{4}(?![\d-])))(?!\d)"
        ),
    ),
    # 127.0.0.1: an address, each part digit by digit (1.2.3.4, starting below 10, is a version).
    (
        Kind.IP,
        re.compile(r"(?<![A-Za-z\d.])(?=[1-9]\d)(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)"),
    ),
    (
        Kind.VERSION,
        re.compile(
            r"(?<![A-Za-z0-9.])(?P<prefix>[vV])?(?P<dotted>\d+(?:\.\d+){2,3})(?![.\d])"
            r"|(?<![A-Za-z0-9.])(?P<short_prefix>[vV])(?P<short_dotted>\d+\.\d+)(?![.\d])"
        ),
    ),
    (
        Kind.CURRENCY,
        re.compile(
            r"(?P<symbol>[$¥€£￥₹₩])\s?(?P<amount>"
            + _NUM
            + r"|\.\d+)"
            + _SCALE
            + r"|(?P<word_amount>"
            + _NUM
            + r")\s?(?P<word>"
            + _CURRENCY_WORDS
            + r"|¢)(?![A-Za-z])"
            r"|(?<![A-Za-z])(?P<code>USD|EUR|GBP|JPY|RMB|CNY|INR|KRW|Rs(?=\.?\s?\d))\.?\s?(?P<code_amount>"
            + _NUM
            + r")"
        ),
    ),
    (Kind.TEMPERATURE, re.compile(r"(?P<value>-?" + _NUM + r")\s?(?P<unit>°C|℃|°F|℉|°)")),
    # 2%-10% is a range of percentages.
    (Kind.PERCENT_RANGE, re.compile(r"(?<=\d[%％])\s?[-–~～]\s?(?=-?\d)")),
    (Kind.PERCENT, re.compile(r"(?P<value>-?" + _NUM + r")\s?[%％]")),
    # 1980s, '80s, 80s; 1980 s (a space before the s) only for 1910-2090, not a round hundred.
    (
        Kind.DECADE,
        re.compile(
            r"(?<![\d.,])(?:['’](?P<short>\d0)|(?P<full>(?:1[1-9]|20)\d0)|(?P<bare>[1-9]0))s"
            r"(?![A-Za-z])|(?<![\d.,])(?P<spaced>(?:19|20)[1-9]0) s(?![A-Za-z])"
        ),
    ),
    # 2-3 mins, 5~10公里: a range of a unit.
    (
        Kind.UNIT_RANGE,
        re.compile(
            r"(?<![\d.,-])(?P<first>"
            + _NUM
            + r")\s?[-–~～]\s?(?="
            + _NUM
            + r"\s?(?:(?:"
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z])|[%％]))"
        ),
    ),
    (
        Kind.UNIT,
        re.compile(
            r"(?<![A-Za-z])(?<![A-Za-z]-)(?P<value>(?:(?<![A-Za-z0-9])-)?"
            + _NUM
            + r")\s?(?P<unit>"
            + "|".join(re.escape(u) for u in _UNIT_NAMES)
            + r")(?![A-Za-z])"
        ),
    ),
    (Kind.ORDINAL, re.compile(r"(?<![A-Za-z0-9.])(?P<value>\d+)(?:st|nd|rd|th)\b")),
    # Chinese codes read digit by digit: 302房间, 302路, G1234次, CA1234航班.
    (
        Kind.ZH_CODE,
        re.compile(
            r"(?<![\d.])\d{3,}(?=房间|房|室|路|次|号房|号楼|栋|航班)|(?<=[A-Z])\d{3,}(?![\d.])"
            r"|(?<=楼)\d{3,4}(?![\d.])"
        ),
    ),
    (Kind.ZH_YEAR, re.compile(r"(?<!\d)(?P<year>\d{2,4})(?=年)")),
    # 第2名 is 第二名: an ordinal, never 两.
    (
        Kind.ZH_ORDINAL,
        re.compile(r"(?<=第)(?P<first>\d+)(?:\s?[-–~～]\s?(?P<last>\d+))?(?![\d.,])"),
    ),
    # $20/mo, $350/yr: a price per period.
    (
        Kind.PER_PERIOD,
        re.compile(r"(?<=[\d$])/(?P<period>mo|month|yr|year|wk|week|d|day|hr|hour)\b"),
    ),
    # 2pm-5pm is a range of times.
    (
        Kind.TIME_RANGE,
        re.compile(r"(?<=[\dmM.])\s?[-–]\s?(?=(?:[01]?\d|2[0-3])(?::[0-5]\d)?\s?[AaPp]\.?[Mm])"),
    ),
    # $50.00-$100.00 is a range of prices.
    # 6:00-8:00, 9:00-18:00: a range of clock times.
    (
        Kind.CLOCK_RANGE,
        re.compile(r"(?<=\d[:：][0-5]\d)\s?[-–~～]\s?(?=(?:[01]?\d|2[0-3])[:：][0-5]\d)"),
    ),
    # 5美元/月, 3元/斤: a price per what follows.
    (Kind.PER_ZH, re.compile(r"(?<=[\d元$¥￥€£])/(?=[\u4e00-\u9fff])")),
    (Kind.MONEY_RANGE, re.compile(r"(?<=\d)\s?[-–]\s?(?=[$¥€£￥]\d)")),
    # 1960s-80s is a range of decades; mid-1980s is not minus anything.
    (Kind.DECADE_RANGE, re.compile(r"(?<=\d0s)\s?[-–]\s?(?=['’]?\d0s|(?:1[1-9]|20)\d0s)")),
    (Kind.SLASHED, written.SLASHED),
    (Kind.SECTION, written.SECTION),
    (Kind.LETTER_CODE, written.LETTER_CODE),
    # 6'2" is six feet two inches.
    (
        Kind.HEIGHT,
        re.compile(r"(?<![\w'’])(?P<feet>[4-7])['’′]\s?(?P<inches>\d|1[01])(?:\"|”|″|'')(?!\w)"),
    ),
    # 1080p, 720P, 1080i: a video resolution, said in pairs (ten eighty p).
    (
        Kind.RESOLUTION,
        re.compile(
            r"(?<![A-Za-z0-9.])(?P<lines>480|576|720|1080|1440|2160|4320)(?P<scan>[pPiI])"
            r"(?![A-Za-z0-9])"
        ),
    ),
    # W2s, B52s: a code in the plural (tax forms, planes), its s no second.
    (
        Kind.CODE_PLURAL,
        re.compile(r"(?<![A-Za-z0-9])(?P<letters>[A-Z]{1,3})(?P<digits>\d{1,4})s(?![A-Za-z0-9])"),
    ),
    # 10^6 is ten to the power of six.
    (
        Kind.POWER,
        re.compile(r"(?<![\d.])(?P<base>" + _NUM + r")\s?\^\s?(?P<exponent>-?\d+)(?![\d.])"),
    ),
    # 2x8 is two by eight (a size); 2x alone is a multiplier.
    (
        Kind.DIMENSION,
        re.compile(
            r"(?<![A-Za-z0-9.])(?P<first>" + _NUM + r")\s?[x×]\s?(?P<second>" + _NUM + r")"
            r"(?![\d.,]|[A-Za-z]{2})"
            r"(?:\s?(?P<unit>" + "|".join(re.escape(u) for u in _UNIT_NAMES) + r")(?![A-Za-z0-9]))?"
        ),
    ),
    # 978-0 falls: not a range (that rises) nor a score (small numbers): a code, its dash silent.
    (
        Kind.DASH_CODE,
        re.compile(r"(?<![\d.,/-])(?P<head>\d{3,})\s?-\s?(?P<tail>\d+)(?![\d,/-]|\.\d)"),
    ),
    # 1,250 is one quantity, whoever reads it (wetext drops its first word).
    (
        Kind.GROUPED,
        re.compile(r"(?<![\d.,])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,]|\.\d|st|nd|rd|th)"),
    ),
    # Digits that are not a quantity: 007, 0100, ZIP 94103, an account number.
    (
        Kind.DIGITS,
        re.compile(
            r"(?<![\d.,])(?:0\d+|\d{7,})(?![\d.,])"
            r"|(?:(?<=ZIP )|(?<=zip )|(?<=ZIP: )|(?<=code )|(?<=, [A-Z]{2} )|(?<=, [A-Z]{2}, ))\d{5}(?:-\d{4})?(?![\d.,])"
        ),
    ),
    (
        Kind.NUMBER,
        re.compile(
            r"(?<![A-Za-z0-9.])-?\.\d+|(?<![A-Za-z0-9.])-(?=\d)" + _NUM + r"|(?<!\d)" + _NUM
        ),
    ),
    (Kind.SYMBOL, written.SYMBOL),
    (Kind.EQUALS, written.EQUALS),
]
