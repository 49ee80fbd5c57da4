"""Dialogue scripts: a line that starts with a speaker name, `Alice: Hello.`, `爱丽丝：你好。`
or `[Alice] Hello.`, sets that sentence's speaker (mapped to a saved voice later).

A line in parentheses is a stage direction and is not spoken; any other line is narration
(no speaker). A text is taken for a script when most of its lines name a speaker.
"""

from __future__ import annotations

import re

from app.narration.inputs.cleaning import one_line
from app.text import INLINE

MAX_NAME_CHARS = 40
MAX_NAME_WORDS = 4
_BRACKETED = re.compile(r"^\[(?P<name>[^\[\]\n]{1,40})\]\s*(?P<text>.*)$")
_COLON = re.compile(r"^(?P<name>[^:：\[\]\n]{1,40}?)\s*[:：]\s*(?P<text>.*)$")
_NOT_IN_NAME = re.compile(r"[.,;!?。，；！？\"“”()（）<>/\\]")
_CONTROL_NAMES = {t.strip("[]") for t in INLINE} | {"speed", "oral", "laugh", "break"}
_STAGE = re.compile(r"^\s*(?:\(.*\)|（.*）)\s*$")
SCRIPT_SHARE = 0.6  # of non-blank lines naming a speaker


def _name_ok(name: str) -> bool:
    name = name.strip()
    if not name or _NOT_IN_NAME.search(name) or len(name.split()) > MAX_NAME_WORDS:
        return False
    if not any(ch.isalpha() for ch in name):  # "14:30 we met" is a time, not a speaker
        return False
    return re.sub(r"_?\d+$", "", name.lower()) not in _CONTROL_NAMES


def speaker_line(line: str) -> tuple[str, str] | None:
    """(speaker, words) when the line starts with a speaker name, else None."""
    line = line.strip()
    for pattern in (_BRACKETED, _COLON):
        m = pattern.match(line)
        if not m or not _name_ok(m.group("name")):
            continue
        words = m.group("text")
        # "at 14:30" is a time and "http://" an address, not a speaker and their words.
        if not words.startswith("//") and not (
            m.group("name")[-1:].isdigit() and words[:1].isdigit()
        ):
            return one_line(m.group("name")), m.group("text").strip()
    return None


def is_stage_direction(line: str) -> bool:
    return bool(_STAGE.match(line))


def looks_like_script(lines: list[str]) -> bool:
    spoken = [line for line in lines if line.strip() and not is_stage_direction(line)]
    named = sum(1 for line in spoken if speaker_line(line))
    return named >= 2 and named >= SCRIPT_SHARE * len(spoken)
