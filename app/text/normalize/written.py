"""What is written but not a quantity: web and mail addresses, symbols on their own, US state
codes of an address, chains of numbers between slashes, 401(k). Each reading is held by
tests/engine/test_normalize_written.py; the yardsticks are NeMo's electronic, word, serial,
address and whitelist test cases (bench/text_quality.py, docs/text.md)."""

from __future__ import annotations

import re

from app.text.normalize import en, zh

_TLD = r"[a-z]{2,}"
# A web or mail address: a scheme, www., an @, or lowercase words joined by dots with no
# space and a letters-only end (test.com, image.jpg); e.g./i.e. (single letters) are not.
ELECTRONIC = re.compile(
    r"(?<![A-Za-z0-9_@.])(?:"
    r"(?:https?|ftp|file)://[^\s<>\"“”]*[^\s<>\"“”.,;:!?)]"
    r"|[A-Za-z0-9][A-Za-z0-9_.+&-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:/[^\s<>\"“”]*[^\s<>\"“”.,;:!?)])?"
    r"|www\.[^\s<>\"“”]*[^\s<>\"“”.,;:!?)]"
    r"|(?![a-z]\.[a-z]\b)[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*\."
    + _TLD
    + r"(?![A-Za-z0-9_@]|\.[A-Za-z0-9])"
    r"(?:/[^\s<>\"“”]*[^\s<>\"“”.,;:!?)])?"
    r")"
)
_SEPARATORS = {
    "en": {
        "://": " colon slash slash ",
        ":": " colon ",
        "/": " slash ",
        ".": " dot ",
        "@": " at ",
        "-": " dash ",
        "_": " underscore ",
        "+": " plus ",
        "~": " tilde ",
        "#": " hash ",
        "?": " question mark ",
        "=": " equals ",
        "&": " ampersand ",
    },
    "zh": {
        "://": "冒号斜杠斜杠",
        ":": "冒号",
        "/": "斜杠",
        ".": "点",
        "@": " at ",
        "-": "杠",
        "_": "下划线",
        "+": "加",
        "~": "波浪号",
        "#": "井号",
        "?": "问号",
        "=": "等于",
        "&": "和",
    },
}
# Words of an address said as letters: no vowel (www, http, dgx) or a two-letter country code.
_SAID_AS = {"jpg": "jpeg"}


def _word(word: str, lang: str, last: bool) -> str:
    if word.isdigit():
        return en.digits(word) if lang == "en" else zh.digits(word, zh.PHONE_DIGITS)
    if word.lower() in _SAID_AS:
        return _SAID_AS[word.lower()]
    if not re.search(r"[aeiouy]", word.lower()) or (last and len(word) == 2):
        return " ".join(word.upper())
    return word


def electronic(address: str, lang: str) -> str:
    """a.bc@gmail.com -> a dot bc at gmail dot com; digits one by one (asdf123: one two three)."""
    parts = re.findall(r"://|[:/.@\-_+~#?=&]|[A-Za-z]+|\d+|.", address)
    words = [i for i, p in enumerate(parts) if re.fullmatch(r"[A-Za-z]+", p)]
    out = []
    for i, part in enumerate(parts):
        if part in _SEPARATORS["en"]:
            out.append(_SEPARATORS[lang][part].strip() if lang == "en" else _SEPARATORS[lang][part])
        elif part.isalnum():
            out.append(_word(part, lang, bool(words) and i == words[-1]))
        else:
            out.append(part)
    return " ".join(out) if lang == "en" else "".join(out)


# A symbol on its own, not part of a number's reading ($5, 5%): said by its name.
SYMBOL = re.compile(
    r"[$€₩£¥#%@&√π]|(?<=[A-Za-z])\+{1,2}|(?<=\d)\+(?![\d+])|(?<=[A-Za-z]{3})/(?=[A-Za-z]{3})|(?<=\s)/(?=\s)"
    r"|(?<!\S)/(?=[$€₩£¥#%@])"
)
_SYMBOL_NAMES = {
    "en": {
        "$": "dollar",
        "€": "euro",
        "₩": "won",
        "£": "pound",
        "¥": "yen",
        "#": "hash",
        "%": "percent",
        "@": "at",
        "+": "plus",
        "/": "slash",
        "&": "and",
        "√": "square root of",
        "π": "pi",
    },
}
_ZH_NAMES = {"√": "根号", "π": "派"}
# and/or is read "and or": the slash there is not said.
_SILENT_SLASH = re.compile(r"\band/or\b", re.IGNORECASE)


def symbol(m: re.Match, lang: str, text: str) -> str | None:
    if m.group(0).startswith("+"):  # C++, A+, 18+: C加加 in Chinese
        return ("加" * len(m.group(0))) if lang == "zh" else " ".join(["plus"] * len(m.group(0)))
    if m.group(0) == "#" and re.search(r"(?<![A-Za-z])[A-G]$", text[: m.start()]):
        return " sharp" if lang == "zh" else "sharp"  # C#, F#: the note and the language
    if m.group(0) in _ZH_NAMES and lang == "zh":
        return _ZH_NAMES[m.group(0)]
    if lang != "en":
        return None
    if m.group(0) == "/" and (
        _SILENT_SLASH.search(text, max(0, m.start() - 3), m.end() + 2)
        or re.search(r"\d\s?$", text[: m.start()])
        or re.match(r"\s?\d", text[m.end() :])
    ):
        return None
    if m.group(0) in "$€₩£¥₹" and re.match(r"\s?[\d.]", text[m.end() :]):
        return None  # money: its readers say the amount first
    if m.group(0) == "#" and re.match(r"\d", text[m.end() :]):
        return "number "  # #1 is number one
    # A space after a symbol before it ($€: dollar euro); one after a letter is the reader's.
    before = text[m.start() - 1 : m.start()]
    lead = " " if before and not before.isspace() and not before.isalnum() else ""
    return lead + _SYMBOL_NAMES["en"][m.group(0)]


# An equals sign or a plus sign the grammars left (5×6=30, +5): read only after them, so
# that they still see whole expressions (y=x +1).
EQUALS = re.compile(r"(?<=[\d\s\u3400-\u9fff])=(?=[\s\d\u3400-\u9fff-])|(?<![\w+])\+(?=\d)")


def equals(sign: str, lang: str) -> str:
    """= and a plus sign before a number (+5)."""
    if sign == "+":
        return "加" if lang == "zh" else "plus"
    return "等于" if lang == "zh" else "equals"


US_STATES = {
    "AL": "Alabama",
    "AK": "Alaska",
    "AZ": "Arizona",
    "AR": "Arkansas",
    "CA": "California",
    "CO": "Colorado",
    "CT": "Connecticut",
    "DE": "Delaware",
    "FL": "Florida",
    "GA": "Georgia",
    "HI": "Hawaii",
    "ID": "Idaho",
    "IL": "Illinois",
    "IN": "Indiana",
    "IA": "Iowa",
    "KS": "Kansas",
    "KY": "Kentucky",
    "LA": "Louisiana",
    "ME": "Maine",
    "MD": "Maryland",
    "MA": "Massachusetts",
    "MI": "Michigan",
    "MN": "Minnesota",
    "MS": "Mississippi",
    "MO": "Missouri",
    "MT": "Montana",
    "NE": "Nebraska",
    "NV": "Nevada",
    "NH": "New Hampshire",
    "NJ": "New Jersey",
    "NM": "New Mexico",
    "NY": "New York",
    "NC": "North Carolina",
    "ND": "North Dakota",
    "OH": "Ohio",
    "OK": "Oklahoma",
    "OR": "Oregon",
    "PA": "Pennsylvania",
    "RI": "Rhode Island",
    "SC": "South Carolina",
    "SD": "South Dakota",
    "TN": "Tennessee",
    "TX": "Texas",
    "UT": "Utah",
    "VT": "Vermont",
    "VA": "Virginia",
    "WA": "Washington",
    "WV": "West Virginia",
    "WI": "Wisconsin",
    "WY": "Wyoming",
    "DC": "D C",
}
# A state code closes an address: after "City, " and before a ZIP or the end of the text.
# Codes that are also words (OK, IN, OR, ME, HI) only before a ZIP.
_WORDLIKE = "OK|IN|OR|ME|HI|MD|MA|PA"
STATE = re.compile(
    r"(?<=[A-Za-z], )(?:(?P<before_zip>" + "|".join(US_STATES) + r")(?=,?\s\d{5}(?:-\d{4})?(?!\d))"
    r"|(?!(?:" + _WORDLIKE + r")\b)(?P<at_end>" + "|".join(US_STATES) + r")(?=\.?\s*$|\.?\s*\n))"
)


def state(m: re.Match, lang: str) -> str | None:
    return US_STATES[m["before_zip"] or m["at_end"]] if lang == "en" else None


# 31/31/100, 123/261788/2021: three numbers or more between slashes that are not a date.
SLASHED = re.compile(r"(?<![A-Za-z0-9_/.])\d+(?:/\d+){2,}(?![A-Za-z0-9_/]|\.\d)")


def slashed(m: re.Match, lang: str) -> str:
    parts = m.group(0).split("/")

    def read(p: str) -> str:
        if lang == "zh":
            return zh.digits(p, zh.PHONE_DIGITS) if len(p) >= 5 else zh.number(p)
        return en.digits(p) if len(p) >= 5 else en.number(p)

    return (" slash " if lang == "en" else "斜杠").join(read(p) for p in parts)


# 401(k), 403(b), 501(c): a section of the tax code, its digits and letter said one by one.
SECTION = re.compile(r"(?<![A-Za-z0-9_.])(?P<digits>\d{3})\((?P<letter>[a-z])\)")


def section(m: re.Match, lang: str) -> str:
    digits = m["digits"]
    spoken = en.digits(digits) if lang == "en" else zh.digits(digits, zh.PHONE_DIGITS)
    return spoken + " " + m["letter"]


# ab9453, asdf123, h264: lowercase letters with digits stuck to them are a code.
LETTER_CODE = re.compile(
    r"(?<![A-Za-z0-9_.@/-])(?P<letters>[a-z]{1,8})(?P<digits>\d{3,})(?![A-Za-z0-9_.,@/-])"
)


def letter_code(m: re.Match, lang: str) -> str:
    if lang == "zh":
        return m["letters"] + zh.digits(m["digits"], zh.PHONE_DIGITS)
    return m["letters"] + " " + en.digits(m["digits"])
