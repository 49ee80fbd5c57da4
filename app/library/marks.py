"""A history entry's sentence boundaries (SegmentMark) as stored: a JSON list of
[start, end, text_start, text_end], text positions null where a sentence was not found.

Read back they are checked whole: a list that does not fit (hostile or damaged) is dropped
with a sentence in the log and the entry kept, as an entry without marks plays unhighlighted.
"""

from __future__ import annotations

import json
import logging

from app.core import SegmentMark
from app.i18n import _

log = logging.getLogger("chattts_studio.history")

MAX_MARKS = 20_000  # a 50,000-character text has far fewer sentences
MAX_MARKS_CHARS = 2_000_000  # refused before parsing: JSON of MAX_MARKS rows is smaller
_MAX_POSITION = 2**53  # samples or characters: any real one is far below


def write_marks(marks: list[SegmentMark]) -> str:
    if not marks:
        return ""
    return json.dumps([[m.start, m.end, m.text_start, m.text_end] for m in marks])


def _position(value, optional: bool = False) -> bool:
    if value is None:
        return optional
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_POSITION


def _parse(value) -> list[SegmentMark] | None:
    """The marks in `value`, or None when it does not fit."""
    if not isinstance(value, str) or len(value) > MAX_MARKS_CHARS:
        return None
    try:
        rows = json.loads(value)
    except (ValueError, RecursionError):
        return None
    if not isinstance(rows, list) or len(rows) > MAX_MARKS:
        return None
    marks: list[SegmentMark] = []
    at = 0
    for row in rows:
        if not isinstance(row, list) or len(row) != 4:
            return None
        start, end, text_start, text_end = row
        if not (_position(start) and _position(end) and at <= start <= end):
            return None
        if not (_position(text_start, True) and _position(text_end, True)):
            return None
        if (text_start is None) != (text_end is None) or (
            text_start is not None and text_start > text_end
        ):
            return None
        marks.append(SegmentMark(start, end, text_start, text_end))
        at = end
    return marks


def read_marks(value, where: str) -> list[SegmentMark]:
    """The stored marks, [] when there are none or they do not fit (said in the log)."""
    if value == "" or value is None:
        return []
    marks = _parse(value)
    if marks is None:
        log.warning(
            "%s",
            _(
                "{where}: its sentence boundaries are not valid and were dropped; "
                "it plays without highlighting."
            ).format(where=where),
        )
        return []
    return marks
