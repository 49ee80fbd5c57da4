"""Subtitles (SRT, WebVTT) for a timed voice-over, read with pysubs2.

Each cue becomes its sentence(s), carrying where it is to be heard. A cue the splitter cuts
into several sentences shares its slot among them by length, so every sentence has its own
start and end inside the cue. Formatting tags are dropped; a cue that ends before it starts
is skipped with a notice.
"""

from __future__ import annotations

import html
import re

from app.i18n import _
from app.narration.inputs.building import DocumentBuilder, split_sentences
from app.narration.inputs.limits import SourceFileError
from app.narration.source import SourceDocument, SourceSentence

_TAG = re.compile(r"<[^<>]{0,200}>|\{\\[^{}]{0,200}\}")
MAX_CUE_SECONDS = 24 * 3600 * 7     # a week: later than any voice-over


def _cues(text: str, format_: str | None):
    import pysubs2

    try:
        subs = pysubs2.SSAFile.from_string(text, format_=format_)
    except Exception:   # pysubs2 raises many kinds of errors on a damaged file
        return None
    return [e for e in subs.events if not e.is_comment]


def read_subtitles(text: str, source: str, title: str, format_: str | None = None) -> SourceDocument:
    """`format_`: "srt" or "vtt" (from the file's extension), or None to detect."""
    events = _cues(text, format_)
    if events is None and format_ is not None:
        events = _cues(text, None)
    if not events:
        raise SourceFileError(_("{source} holds no subtitle cues we can read (SRT or WebVTT).").format(
            source=source))
    doc = DocumentBuilder(source, "subtitles", title)
    doc.chapter(title)
    for number, event in enumerate(sorted(events, key=lambda e: e.start), 1):
        start, end = event.start / 1000, event.end / 1000
        if not (0 <= start < end <= MAX_CUE_SECONDS):
            doc.notice(_("Cue {number} of {source} ends before it starts and was skipped.").format(
                number=number, source=source))
            continue
        words = _TAG.sub("", html.unescape(event.plaintext))
        pieces = split_sentences(words)
        total = sum(len(p) for p in pieces)
        at = start
        for i, piece in enumerate(pieces):
            until = end if i == len(pieces) - 1 else at + (end - start) * len(piece) / total
            doc.sentences([SourceSentence(piece, start=round(at, 3), end=round(until, 3))])
            at = until
    return doc.build()
