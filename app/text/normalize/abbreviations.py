"""English abbreviations that end with a dot: said in full, and not taken for a sentence end.

The splitter (app/text/prepare.py) asks `dot_ends_sentence` about every ". " it meets, so
"Mr. Smith" stays one sentence even in text that was not normalized.
"""

from __future__ import annotations

import re

# The dot after these never ends a sentence: a name or a number follows.
TITLES = {
    "mr": "Mister",
    "mrs": "Missus",
    "ms": "Miz",
    "prof": "Professor",
    "mt": "Mount",
    "vs": "versus",
    "cf": "compare",
    "approx": "approximately",
    "fig": "figure",
}
# These can end a sentence ("... and so on, etc. Then ..."); a capital after them starts one.
MAY_END = {
    "etc": "et cetera",
    "inc": "Incorporated",
    "ltd": "Limited",
    "jr": "Junior",
    "sr": "Senior",
    "ave": "Avenue",
    "dept": "Department",
}
DOTTED = {"e.g.": "for example", "i.e.": "that is", "a.m.": "a m", "p.m.": "p m"}

PATTERN = re.compile(
    r"(?<![A-Za-z.])(?:(?:[A-Za-z]\.){2,}[A-Za-z](?![A-Za-z.])|(?:[A-Za-z]\.){2,}|(?:"
    + "|".join(sorted(set(TITLES) | set(MAY_END) | {"st", "dr", "no"}, key=len, reverse=True))
    + r")\.)",
    re.IGNORECASE,
)

_WORD_BEFORE = re.compile(r"(?:[A-Za-z]\.)*[A-Za-z]+$")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _next_char(after: str) -> str:
    stripped = after.lstrip()
    return stripped[:1]


def _starts_sentence(after: str) -> bool:
    """What follows the dot looks like a new sentence: a capital, a CJK character or nothing."""
    ch = _next_char(after)
    return not ch or ch.isupper() or bool(_CJK.match(ch)) or ch in "\"“'‘([（"


def _previous_word_is_name(before: str) -> bool:
    """'Main St.' (a street) rather than 'in St. Louis' or a sentence start."""
    words = re.findall(r"[A-Za-z]+|[.!?。！？]", before)
    return (
        bool(words) and words[-1][0].isupper() and len(words) > 1 and words[-2] not in ".!?。！？"
    )


def expand(abbreviation: str, before: str, after: str) -> str | None:
    """The spoken form of `abbreviation` (with its dot) between `before` and `after`;
    a dot that also ends the sentence is kept. None: leave it as written."""
    word = abbreviation[:-1].lower()
    key = abbreviation.lower()
    if key in DOTTED:
        spoken, may_end = DOTTED[key], key in ("a.m.", "p.m.")
    elif "." in word:  # U.S. -> U S; "the U.S. Army" goes on
        spoken = " ".join(abbreviation.replace(".", "")).upper()
        return spoken + ("." if not after.strip() and abbreviation.endswith(".") else "")
    elif word in TITLES:
        spoken, may_end = TITLES[word], False
    elif word in MAY_END:
        spoken, may_end = MAY_END[word], True
    elif word == "no":
        if not re.match(r"\s?\d", after):  # "I said no." is not "number"
            return None
        spoken, may_end = "number", False
    elif word == "dr":
        named = _next_char(after).isupper()
        spoken, may_end = ("Doctor", False) if named else ("Drive", True)
    else:  # st
        saint = _next_char(after).isupper() and not _previous_word_is_name(before)
        spoken, may_end = ("Saint", False) if saint else ("Street", True)
    if may_end and _starts_sentence(after):
        spoken += "."
    return spoken


def dot_ends_sentence(before: str, after: str) -> bool:
    """Does the '.' between `before` and `after` end a sentence? Not after a title, an
    initial (J. R. Tolkien), e.g./i.e., or an abbreviation followed by a small letter."""
    found = _WORD_BEFORE.search(before)
    if not found or (found.start() > 0 and before[found.start() - 1] == "."):
        return True
    word = found.group(0).lower()
    if word in TITLES or word in ("e.g", "i.e", "mr", "mrs", "dr"):
        return False
    if len(word) == 1 and found.group(0).isupper():
        return False
    if word == "no":
        return not re.match(r"\s?\d", after)
    if "." in word:
        return not after.strip()
    if word in MAY_END or word == "st":
        return _starts_sentence(after)
    return True
