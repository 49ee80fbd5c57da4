"""ChatTTS control tokens in the text: keep the ones it understands, drop the rest with a warning.

Anything else in square brackets would be read aloud letter by letter (or half-understood),
so it is removed and the user is told why. Prompt-level tokens ([speed_N], [oral_N],
[laugh_N], [break_N]) belong to the parameter controls, not to the text.
"""

from __future__ import annotations

import re

from app.i18n import N_, _

INLINE = ("[uv_break]", "[v_break]", "[lbreak]", "[llbreak]", "[laugh]")
# The buttons beside the editor insert these.
BUTTONS = ("[uv_break]", "[laugh]", "[lbreak]")
_BRACKETED = re.compile(r"\[[^\[\]\n]{0,40}\]")
_PROMPT_LEVEL = re.compile(r"\[(speed|oral|laugh|break)_\d\]")
_KNOWN = re.compile("|".join(re.escape(t) for t in INLINE))
# A bracket that is not part of a whole token: ChatTTS would drop the text after it.
_STRAY = re.compile(
    r"\[(?!(?:uv_break|v_break|lbreak|llbreak|laugh)\])|(?<!\[uv_break)(?<!\[v_break)"
    r"(?<!\[lbreak)(?<!\[llbreak)(?<!\[laugh)\]"
)
# One sentence per control, so that a translation names the control as the window labels it.
_USE_CONTROL = {
    "speed": N_("Removed {token} from the text: set it with the speed control instead."),
    "oral": N_("Removed {token} from the text: set it with the oral control instead."),
    "laugh": N_("Removed {token} from the text: set it with the laugh control instead."),
    "break": N_("Removed {token} from the text: set it with the break control instead."),
}


def _drop_stray(m: re.Match, text: str, warnings: list[str]) -> str:
    start = m.start()
    near = text[max(0, start - 12) : start + 13].replace("\n", " ")
    warnings.append(
        _(
            "Removed an unmatched '{bracket}' near \"{near}\": ChatTTS would drop the text after it; "
            "write [ and ] only around a control token."
        ).format(bracket=m.group(0), near=near)
    )
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
            warnings.append(_(_USE_CONTROL[token[1:].split("_")[0]]).format(token=token))
        else:
            warnings.append(
                _(
                    "Removed {token}: ChatTTS does not know this token and would read it aloud."
                ).format(token=token)
            )
        return ""

    cleaned = _BRACKETED.sub(keep_or_drop, text)
    cleaned = _STRAY.sub(lambda m: _drop_stray(m, cleaned, warnings), cleaned)
    if warnings:
        cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return cleaned, warnings
