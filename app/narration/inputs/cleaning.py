"""Text as it comes out of a parser -> text a sentence can hold.

Control characters, zero-width marks and stray byte-order marks never reach the model;
runs of white space become one space; Unicode is composed (NFC) so the same word is
always the same string.
"""

from __future__ import annotations

import re
import unicodedata

_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b\u200e\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\ufeff\ufff9-\ufffb\ufffe\uffff]"
)
_SPACES = re.compile(r"\s+")
_CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


def clean_lines(text: str) -> str:
    """Newlines kept (readers split on them), everything invisible removed."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))
    return _INVISIBLE.sub("", text.replace("\u2028", "\n").replace("\u2029", "\n"))


def one_line(text: str) -> str:
    return _SPACES.sub(" ", clean_lines(text)).strip()


def join_lines(lines: list[str]) -> str:
    """The lines of one wrapped paragraph as one line: a space between Latin words, none
    between Chinese characters (a wrapped Chinese line has no space at its end)."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and not (_CJK.match(out[-1]) and _CJK.match(line[0])):
            out += " "
        out += line
    return out


def title_text(text: str, limit: int) -> str:
    title = one_line(text)
    return title if len(title) <= limit else title[: limit - 1].rstrip() + "…"
