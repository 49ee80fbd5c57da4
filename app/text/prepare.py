"""Checking and splitting the text to speak.

Segments are what ChatTTS decodes in one pass. Upstream splits only at newlines, "。" and
". "; we cut sentences with a real segmenter (sentences.py) and bound each segment's length,
because one very long segment hits the model's token cap and loses its ending.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from app.core import InputTextError
from app.i18n import _

MAX_TEXT_CHARS = 50_000
MAX_SEGMENT_CHARS = 120

# Not after "," or ":" inside a number (1,234 or 14:30), nor at a no-break space: normalize()
# joins the words of one number ("four\xa0dollars") with it, so they are never cut apart.
_SOFT_BREAK = re.compile(r"(?<=[，、：])|(?<=[,:])(?!\d)|(?<=[^\S\xa0])")
KEEP_TOGETHER = "\xa0"


def decode_text(data: bytes, source: str) -> str:
    # Notepad on Chinese Windows saves GBK by default; UTF-8 (with or without BOM) elsewhere.
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise InputTextError(
        _("{source} is not UTF-8 or GBK text; save it as UTF-8 and try again.").format(
            source=source
        )
    )


# A character takes at most 4 bytes in UTF-8 (2 in GBK): more bytes than this cannot fit the limit.
MAX_TEXT_BYTES = 4 * (MAX_TEXT_CHARS + 1)


def read_capped(stream, source: str) -> bytes:
    """At most MAX_TEXT_BYTES from `stream`; a longer input (even /dev/zero) is refused at once."""
    data = stream.read(MAX_TEXT_BYTES + 1)
    if len(data) > MAX_TEXT_BYTES:
        raise InputTextError(
            _(
                "{source} is longer than the limit of {limit} characters; split it into "
                "several files and synthesize them one by one."
            ).format(source=source, limit=f"{MAX_TEXT_CHARS:,}")
        )
    return data


def read_text_file(path: os.PathLike | str) -> str:
    target = Path(path).expanduser()
    try:
        with open(target, "rb") as f:
            data = read_capped(f, str(target))
    except FileNotFoundError:
        raise InputTextError(
            _("The input file {path} does not exist.").format(path=target)
        ) from None
    except IsADirectoryError:
        raise InputTextError(
            _("{path} is a folder; give a text file.").format(path=target)
        ) from None
    except OSError as exc:
        raise InputTextError(
            _("The input file {path} cannot be read ({error}).").format(
                path=target, error=exc.strerror or exc
            )
        ) from None
    return decode_text(data, str(target))


def check_text(text: str | None) -> str:
    if text is None or not text.strip():
        raise InputTextError(_("There is no text to speak; type or paste some text first."))
    if len(text) > MAX_TEXT_CHARS:
        raise InputTextError(
            _(
                "The text has {count} characters; the limit is {limit}. Split it into several files and "
                "synthesize them one by one."
            ).format(count=f"{len(text):,}", limit=f"{MAX_TEXT_CHARS:,}")
        )
    return text


def check_speakable(text: str) -> str:
    """Refuse text that is only control tokens and punctuation: the model would babble."""
    from app.text.control_tokens import only_control_tokens

    if only_control_tokens(text):
        raise InputTextError(
            _(
                "The text holds only control tokens such as {token} and no words; "
                "add the words to speak."
            ).format(token="[uv_break]")
        )
    return text


def _inside_token(text: str, i: int) -> bool:
    """Is position i inside a [control_token]?"""
    opening = text.rfind("[", 0, i)
    return opening != -1 and text.rfind("]", 0, i) < opening and text.find("]", i) != -1


def _safe_cut(part: str, limit: int, hard: bool = True) -> int:
    """The last position <= limit that is not inside a Latin word, a number or a [token],
    nor (unless nothing else is left) inside a spoken number. Without one: `limit` when
    `hard` (a word longer than the limit must be cut somewhere), else 0."""
    for keep_numbers in (True, False):
        for i in range(min(limit, len(part) - 1), 0, -1):
            a, b = part[i - 1], part[i]
            if _inside_token(part, i):
                continue
            if a.isascii() and b.isascii() and a.isalnum() and b.isalnum():
                continue
            if ((a.isdigit() or a in ".,:") and b.isdigit()) or (a.isdigit() and b in ".,:"):
                continue
            if keep_numbers and KEEP_TOGETHER in (a, b):
                continue
            return i
    return limit if hard else 0  # one unbroken word longer than the limit


# A short quotation ("New York", “一言为定”) is one word to the reader: never cut inside it.
_SHORT_QUOTE = re.compile(
    r"“[^”]{1,30}”|‘[^’]{1,30}’|「[^」]{1,30}」|『[^』]{1,30}』|\"[^\"]{1,30}\""
)


def _soft_parts(piece: str) -> list[str]:
    quoted = [m.span() for m in _SHORT_QUOTE.finditer(piece)]
    cuts = [
        m.start()
        for m in _SOFT_BREAK.finditer(piece)
        if not any(a < m.start() < b for a, b in quoted)
    ]
    return [piece[a:b] for a, b in zip([0, *cuts], [*cuts, len(piece)]) if a < b]


def _bound(piece: str, limit: int) -> list[str]:
    """Cut an over-long sentence at commas or spaces, else at the last safe place."""
    out: list[str] = []
    current = ""
    for part in _soft_parts(piece):
        while len(part) > limit:
            if current:
                out.append(current)
                current = ""
            cut = _safe_cut(part, limit)
            out.append(part[:cut])
            part = part[cut:]
        if len(current) + len(part) > limit and current:
            out.append(current)
            current = ""
        current += part
    if current:
        out.append(current)
    return _attach_punctuation(out, limit)


def _attach_punctuation(pieces: list[str], limit: int) -> list[str]:
    """A piece of punctuation alone joins the piece before it, which gives up its last words
    to make room; only punctuation is ever past the limit (test_text_pipeline.py)."""
    from app.text.sentences import wordy

    out: list[str] = []
    for piece in pieces:
        if out and not wordy(piece):
            before = out[-1]
            # Only a safe cut: punctuation may pass the limit, a word is never cut for it.
            cut = _safe_cut(before, len(before) - 1, hard=False) if len(before) > 1 else 0
            if (
                len(before) + len(piece) > limit
                and len(before) + len(piece) - limit <= cut < len(before)
                and wordy(before[:cut])
                and wordy(before[cut:])
            ):
                out[-1], piece = before[:cut], before[cut:] + piece
                out.append(piece)
            else:
                out[-1] = before + piece
        elif not out or wordy(out[-1]):
            out.append(piece)
        else:
            out[-1] += piece  # leading punctuation joins the words after it
    return out


def split_text(text: str, limit: int = MAX_SEGMENT_CHARS) -> list[str]:
    """Non-empty, stripped segments in reading order, each with a letter, digit or CJK character
    and at most `limit` characters (punctuation past the limit stays with its words)."""
    return _split(check_text(text), limit)


def _split(text: str, limit: int = MAX_SEGMENT_CHARS, speak=None) -> list[str]:
    """Sentences of the text as written (the segmenter knows "p.m." and "U.S.", not their
    spoken "p m" and "U S"), each through `speak` (its spoken form), then bounded."""
    return [seg for seg, _number, _sentence in _split_sourced(text, limit, speak)]


def _split_sourced(
    text: str, limit: int = MAX_SEGMENT_CHARS, speak=None
) -> list[tuple[str, int, str]]:
    """`_split`'s segments, each with the number and text of the written sentence it came from."""
    from app.text.sentences import sentences

    segments: list[tuple[str, int, str]] = []
    number = 0
    for line in text.splitlines():
        for sentence in sentences(line):
            number += 1
            for seg in _bound((speak(sentence) if speak else sentence).strip(), limit):
                if seg.strip():
                    segments.append((seg.strip(), number, sentence))
    return segments


def source_spans(text: str, sentences: list[tuple[int, str]]) -> list[tuple[int, int] | None]:
    """Each (number, sentence)'s characters in `text`, found in reading order; a sentence the
    dictionary or a removed token changed is not found there (None). Segments of one
    over-long sentence (the same number) share its span."""
    spans: list[tuple[int, int] | None] = []
    at = 0
    previous = None
    for number, sentence in sentences:
        if number == previous and spans:
            spans.append(spans[-1])
            continue
        previous = number
        found = text.find(sentence, at)
        if found < 0:
            spans.append(None)
            continue
        spans.append((found, found + len(sentence)))
        at = found + len(sentence)
    return spans


_FINAL_PUNCT = "。！？.!?，,；;：:…~～)）」』\"'”’"


def finish_segment(segment: str) -> str:
    """End a segment with punctuation: ChatTTS tends to cut off a last word that has none."""
    body = segment.rstrip()
    stripped = body
    while stripped.endswith("]") and "[" in stripped:
        stripped = stripped[: stripped.rfind("[")].rstrip()
    if not stripped or stripped[-1] in _FINAL_PUNCT:
        return body
    from app.text.normalize import language_of

    return body + ("。" if language_of(stripped) == "zh" else ".")


@dataclass
class PreparedText:
    """The text as the model will get it: one entry per segment, plus what was changed."""

    segments: list[str]
    warnings: list[str] = field(default_factory=list)
    # Each segment's characters in the text as typed (None where it cannot be found there).
    spans: list[tuple[int, int] | None] = field(default_factory=list)

    def span(self, index: int) -> tuple[int, int] | None:
        return self.spans[index] if 0 <= index < len(self.spans) else None

    @property
    def spoken(self) -> str:
        return "\n".join(self.segments)


def prepare_text(text: str, dictionary=None) -> PreparedText:
    """Dictionary, control tokens, normalization, splitting: in that order. The length limit
    is the text's as written: its spoken form is longer (2024 -> 二零二四)."""
    from app.text.control_tokens import clean_control_tokens
    from app.text.normalize import language_of, normalize

    text = original = check_text(text)
    if dictionary is not None:
        text = dictionary.apply(text)
    text, warnings = clean_control_tokens(text)
    if not text.strip():
        raise InputTextError(_("After removing unknown [tokens] there is no text left to speak."))
    check_speakable(text)
    lang = language_of(text)  # a sentence without letters is read in the text's language
    sourced = _split_sourced(text, speak=lambda s: normalize(s, lang, glue=KEEP_TOGETHER))
    segments = [finish_segment(seg.replace(KEEP_TOGETHER, " ")) for seg, _n, _s in sourced]
    spans = source_spans(original, [(number, sentence) for _seg, number, sentence in sourced])
    return PreparedText(segments, warnings, spans)
