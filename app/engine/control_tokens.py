"""ChatTTS control tokens in the text: keep the ones it understands, drop the rest with a warning.

Anything else in square brackets would be read aloud letter by letter (or half-understood),
so it is removed and the user is told why. Prompt-level tokens ([speed_N], [oral_N],
[laugh_N], [break_N]) belong to the parameter controls, not to the text.
"""

from __future__ import annotations

import re

INLINE = ("[uv_break]", "[v_break]", "[lbreak]", "[llbreak]", "[laugh]")
# The buttons beside the editor insert these.
BUTTONS = ("[uv_break]", "[laugh]", "[lbreak]")
_BRACKETED = re.compile(r"\[[^\[\]\n]{0,40}\]")
_PROMPT_LEVEL = re.compile(r"\[(speed|oral|laugh|break)_\d\]")
_KNOWN = re.compile("|".join(re.escape(t) for t in INLINE))
# A bracket that is not part of a whole token: ChatTTS would drop the text after it.
_STRAY = re.compile(r"\[(?!(?:uv_break|v_break|lbreak|llbreak|laugh)\])|(?<!\[uv_break)(?<!\[v_break)"
                    r"(?<!\[lbreak)(?<!\[llbreak)(?<!\[laugh)\]")


def _drop_stray(m: re.Match, text: str, warnings: list[str]) -> str:
    start = m.start()
    near = text[max(0, start - 12): start + 13].replace("\n", " ")
    warnings.append(f"Removed an unmatched '{m.group(0)}' near \"{near}\": ChatTTS would drop the text "
                    "after it; write [ and ] only around a control token.")
    return ""


def only_control_tokens(text: str) -> bool:
    """True if the text has control tokens and, besides them, only spaces and punctuation."""
    if not _BRACKETED.search(text):
        return False
    rest = _KNOWN.sub("", _BRACKETED.sub("", text))
    return not any(ch.isalnum() for ch in rest)


def clean_control_tokens(text: str) -> tuple[str, list[str]]:
    """(text with only known inline tokens, warnings in plain sentences)."""
    warnings: list[str] = []

    def keep_or_drop(m: re.Match) -> str:
        token = m.group(0)
        if token in INLINE:
            return token
        if _PROMPT_LEVEL.fullmatch(token):
            warnings.append(f"Removed {token} from the text: set it with the "
                            f"{token[1:].split('_')[0]} control instead.")
        else:
            warnings.append(f"Removed {token}: ChatTTS does not know this token and would read it aloud.")
        return ""

    cleaned = _BRACKETED.sub(keep_or_drop, text)
    cleaned = _STRAY.sub(lambda m: _drop_stray(m, cleaned, warnings), cleaned)
    if warnings:
        cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return cleaned, warnings
