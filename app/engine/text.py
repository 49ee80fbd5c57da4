"""Checking and splitting the text to speak.

Segments are what ChatTTS decodes in one pass. Upstream splits only at newlines, "。" and
". "; we also split at other sentence ends and bound each segment's length, because one
very long segment hits the model's token cap and loses its ending.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from app.engine.errors import InputTextError

MAX_TEXT_CHARS = 50_000
MAX_SEGMENT_CHARS = 120

_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|(?<=\.)(?=\s)")
_SOFT_BREAK = re.compile(r"(?<=[，、,：:])|(?<=\s)")


def decode_text(data: bytes, source: str) -> str:
    # Notepad on Chinese Windows saves GBK by default; UTF-8 (with or without BOM) elsewhere.
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise InputTextError(f"{source} is not UTF-8 or GBK text; save it as UTF-8 and try again.")


def read_text_file(path: os.PathLike | str) -> str:
    target = Path(path).expanduser()
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        raise InputTextError(f"The input file {target} does not exist.") from None
    except IsADirectoryError:
        raise InputTextError(f"{target} is a folder; give a text file.") from None
    except OSError as exc:
        raise InputTextError(f"The input file {target} cannot be read ({exc.strerror or exc}).") from None
    return decode_text(data, str(target))


def check_text(text: str | None) -> str:
    if text is None or not text.strip():
        raise InputTextError("There is no text to speak; type or paste some text first.")
    if len(text) > MAX_TEXT_CHARS:
        raise InputTextError(
            f"The text has {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}. "
            "Split it into several files and synthesize them one by one."
        )
    return text


def _bound(piece: str, limit: int) -> list[str]:
    """Cut an over-long sentence at commas or spaces, else at the limit."""
    out: list[str] = []
    current = ""
    for part in filter(None, _SOFT_BREAK.split(piece)):
        while len(part) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(part[:limit])
            part = part[limit:]
        if len(current) + len(part) > limit and current:
            out.append(current)
            current = ""
        current += part
    if current:
        out.append(current)
    return out


def split_text(text: str, limit: int = MAX_SEGMENT_CHARS) -> list[str]:
    """Non-empty, stripped segments, each at most `limit` characters, in reading order."""
    segments: list[str] = []
    for line in check_text(text).splitlines():
        for sentence in _SENTENCE_END.split(line):
            for seg in _bound(sentence.strip(), limit):
                if seg.strip():
                    segments.append(seg.strip())
    return segments
