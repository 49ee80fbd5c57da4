"""Subtitles (SRT, WebVTT) for a timed voice-over.

The file is read cue by cue (blocks between blank lines), so a notice names a cue by its place
in the file, the n-th cue, whatever order the times are in. Each cue becomes its sentence(s),
carrying where it is to be heard; a cue the splitter cuts into several sentences shares its
slot among them by length. Formatting tags are dropped. A cue whose time line cannot be read,
that ends before it starts, or that ends more than a week in is skipped with a notice saying
which; a file whose every cue was skipped is refused with the first reason.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

from app.i18n import _, join_sentences
from app.narration.inputs.building import DocumentBuilder, split_sentences
from app.narration.inputs.limits import MAX_SENTENCES, SourceFileError
from app.narration.source import SourceDocument, SourceSentence

_TAG = re.compile(r"<[^<>]{0,200}>|\{\\[^{}]{0,200}\}")
MAX_CUE_SECONDS = 24 * 3600 * 7  # a week: later than any voice-over
_TIME = r"(?:(\d{1,9}):)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})"
_TIMING = re.compile(rf"\s*{_TIME}\s*-->\s*{_TIME}(?:\s.*)?")
_LOOKS_TIMED = re.compile(r"-->|\d:\d\d")
_VTT_BLOCKS = ("NOTE", "STYLE", "REGION")  # WebVTT blocks that are not cues
_QUOTED = 60  # characters of a bad time line a notice quotes


@dataclass(frozen=True)
class Cue:
    number: int  # its place among the file's cues, from 1
    start: float | None  # seconds; None: the time line could not be read
    end: float | None
    text: str
    timing: str  # the time line as written


def _seconds(hours, minutes, seconds, fraction) -> float | None:
    if int(minutes) >= 60 or int(seconds) >= 60:
        return None
    return (
        int(hours or 0) * 3600
        + int(minutes) * 60
        + int(seconds)
        + int(fraction.ljust(3, "0")) / 1000
    )


def _blocks(text: str):
    block: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.strip():
            block.append(line)
        elif block:
            yield block
            block = []
    if block:
        yield block


def _cue_blocks(text: str):
    """The blocks that hold cues, one by one: a WebVTT header's lines are not, but a first cue
    written with no blank line after the header is (tests/narration/test_inputs_formats.py)."""
    blocks = _blocks(text.lstrip("\ufeff"))
    header = next(blocks, None)
    if header is None:
        return
    if not header[0].startswith("WEBVTT"):
        yield header
        yield from blocks
        return
    timed = next((i for i, line in enumerate(header) if "-->" in line), None)
    if timed is not None:
        yield header[max(1, timed - 1) :]
    yield from (b for b in blocks if b[0].split(" ", 1)[0] not in _VTT_BLOCKS)


def _continues(block: list[str], cues: list[Cue]) -> bool:
    """A block with no cue number and nothing like a time in its first lines goes on the text
    of the cue before it: a blank line typed inside a cue's text does not end its words."""
    return (
        bool(cues)
        and cues[-1].start is not None
        and not block[0].strip().isdigit()
        and not any(_LOOKS_TIMED.search(line) for line in block[:2])
    )


def read_cues(text: str, source: str = "") -> list[Cue]:
    """Every cue of an SRT or WebVTT text in file order, readable or not; more than
    MAX_SENTENCES of them is a SourceFileError (each would be a sentence or a notice)."""
    cues: list[Cue] = []
    texts: list[list[str]] = []  # each cue's lines, joined once at the end
    for block in _cue_blocks(text):
        if _continues(block, cues):
            texts[-1].extend(block)
            continue
        if len(cues) >= MAX_SENTENCES:
            raise SourceFileError(
                _(
                    "{source} has more than {limit} subtitle cues; split it into several "
                    "files and narrate them one by one."
                ).format(source=source, limit=f"{MAX_SENTENCES:,}")
            )
        # The time line comes first, or after an SRT number / a WebVTT cue name.
        at = next((i for i, line in enumerate(block[:2]) if "-->" in line), None)
        if at is None:
            at = 1 if len(block) > 1 and block[0].strip().isdigit() else 0
        timing = block[at]
        match = _TIMING.fullmatch(timing)
        start = end = None
        if match:
            start, end = _seconds(*match.groups()[:4]), _seconds(*match.groups()[4:])
            if start is None or end is None:
                start = end = None
        cues.append(Cue(len(cues) + 1, start, end, "", timing.strip()))
        texts.append(block[at + 1 :])
    return [replace(cue, text="\n".join(lines)) for cue, lines in zip(cues, texts)]


def _problem(cue: Cue, source: str) -> str | None:
    """Why `cue` is skipped, as a notice; None when it is kept."""
    if cue.start is None or cue.end is None:  # both or neither (read_cues)
        line = cue.timing if len(cue.timing) <= _QUOTED else cue.timing[:_QUOTED] + "..."
        return _(
            "Cue {number} of {source} has a time line that cannot be read ({line}) and was skipped."
        ).format(number=cue.number, source=source, line=line)
    if cue.end > MAX_CUE_SECONDS:
        return _(
            "Cue {number} of {source} ends more than a week into the file, later than any "
            "voice-over, and was skipped."
        ).format(number=cue.number, source=source)
    if not cue.start < cue.end:
        return _("Cue {number} of {source} ends before it starts and was skipped.").format(
            number=cue.number, source=source
        )
    return None


def read_subtitles(
    text: str, source: str, title: str, format_: str | None = None
) -> SourceDocument:
    """`format_`: "srt" or "vtt" (from the file's extension) or None; the cues decide either way."""
    cues = read_cues(text, source)
    if not any(cue.start is not None for cue in cues):
        raise SourceFileError(
            _("{source} holds no subtitle cues we can read (SRT or WebVTT).").format(source=source)
        )
    doc = DocumentBuilder(source, "subtitles", title)
    doc.chapter(title)
    kept: list[tuple[float, float, Cue]] = []  # start, end, cue
    for cue in cues:
        problem = _problem(cue, source)
        if problem:
            doc.notice(problem)
        elif cue.start is not None and cue.end is not None:  # always, once _problem passed it
            kept.append((cue.start, cue.end, cue))
    if not kept:
        raise SourceFileError(
            join_sentences(
                [
                    _("{source} holds no subtitle cue that can be narrated.").format(source=source),
                    doc.notices[0],
                ]
            )
        )
    for start, end, cue in sorted(kept, key=lambda k: k[0]):
        words = html.unescape(_TAG.sub("", cue.text))
        pieces = split_sentences(words)
        total = sum(len(p) for p in pieces)
        at = start
        for i, piece in enumerate(pieces):
            until = end if i == len(pieces) - 1 else at + (end - start) * len(piece) / total
            doc.sentences([SourceSentence(piece, start=round(at, 3), end=round(until, 3))])
            at = until
    return doc.build()
