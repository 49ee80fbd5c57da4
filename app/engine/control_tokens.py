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
    if warnings:
        cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return cleaned, warnings
