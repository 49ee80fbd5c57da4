"""Chapters and sentences gathered while a reader walks its file, with the caps enforced.

Sentences are cut by the engine's own splitter (app.text.prepare.split_text), so each
one fits a synthesis segment; a piece with nothing to say (a scene break "* * *", a lone
control token) is dropped, since the model would babble over it.
"""

from __future__ import annotations

import re

from app.i18n import _, ngettext
from app.narration.inputs import limits
from app.narration.inputs.cleaning import one_line, title_text
from app.narration.source import SourceChapter, SourceDocument, SourceSentence
from app.text import MAX_TEXT_CHARS, only_control_tokens, split_text

# split_text refuses more than MAX_TEXT_CHARS at once, and its abbreviation check looks at
# everything before each dot of a line (quadratic in the line's length): a long paragraph is
# first cut at a sentence end near this size, where the splitter would cut too.
_CHUNK_CHARS = min(300, MAX_TEXT_CHARS)
_SENTENCE_END = re.compile(r"[。！？!?；;]|\.(?=\s)")
_SPACE = re.compile(r"\s")


def _cut(text: str) -> int:
    from app.text import dot_ends_sentence

    cut = 0
    for m in _SENTENCE_END.finditer(text, _CHUNK_CHARS // 2, _CHUNK_CHARS):
        if m.group() != "." or dot_ends_sentence(
            text[max(0, m.start() - 64) : m.start()], text[m.end() : m.end() + 64]
        ):
            cut = m.end()
    if not cut:
        spaces = [m.end() for m in _SPACE.finditer(text, _CHUNK_CHARS // 2, _CHUNK_CHARS)]
        cut = spaces[-1] if spaces else _CHUNK_CHARS
    return cut


def _chunks(text: str):
    while len(text) > _CHUNK_CHARS:
        cut = _cut(text)
        yield text[:cut]
        text = text[cut:]
    yield text


def speakable(piece: str) -> bool:
    return any(ch.isalnum() for ch in piece) and not only_control_tokens(piece)


def split_sentences(text: str) -> list[str]:
    """One paragraph -> its sentences, each within the engine's segment length."""
    text = one_line(text)
    out: list[str] = []
    for chunk in _chunks(text):
        if chunk.strip():
            out.extend(s for s in split_text(chunk) if speakable(s))
    return out


class DocumentBuilder:
    """Collects chapters in reading order; an empty chapter (a cover, a blank page) is dropped."""

    def __init__(self, source: str, kind: str, title: str, author: str = ""):
        self.source, self.kind, self.title, self.author = source, kind, title, author
        self.chapters: list[SourceChapter] = []
        self.notices: list[str] = []
        self._title: str | None = None
        self._sentences: list[SourceSentence] = []
        self._count = 0
        self._left_out = 0

    def chapter(self, title: str | None) -> None:
        """Close the chapter being built and start one; None: a title is made up if needed."""
        self._close()
        self._title = title

    def text(self, paragraph: str, speaker: str | None = None) -> None:
        self.sentences(SourceSentence(s, speaker) for s in split_sentences(paragraph))

    def sentences(self, sentences) -> None:
        for sentence in sentences:
            self._count += 1
            if self._count > limits.MAX_SENTENCES:
                raise limits.SourceFileError(
                    _(
                        "{source} has more than {limit} sentences; split it into several files and "
                        "narrate them one by one."
                    ).format(source=self.source, limit=f"{limits.MAX_SENTENCES:,}")
                )
            self._sentences.append(sentence)

    def notice(self, text: str) -> None:
        """Kept up to MAX_NOTICES; the rest are counted, so a hostile file cannot fill the
        screen or the memory with them (tests/narration/test_inputs_formats.py)."""
        if len(self.notices) < limits.MAX_NOTICES:
            self.notices.append(text)
        else:
            self._left_out += 1

    def _all_notices(self) -> tuple[str, ...]:
        if not self._left_out:
            return tuple(self.notices)
        return (
            *self.notices,
            ngettext(
                "{count} more notice like these was left out.",
                "{count} more notices like these were left out.",
                self._left_out,
            ).format(count=f"{self._left_out:,}"),
        )

    def _close(self) -> None:
        if not self._sentences:
            return
        if len(self.chapters) >= limits.MAX_CHAPTERS:
            raise limits.SourceFileError(
                _(
                    "{source} has more than {limit} chapters; split it into several files and "
                    "narrate them one by one."
                ).format(source=self.source, limit=f"{limits.MAX_CHAPTERS:,}")
            )
        title = title_text(self._title or "", limits.MAX_TITLE_CHARS)
        if not title:
            title = _("Chapter {number}").format(number=len(self.chapters) + 1)
        self.chapters.append(SourceChapter(title, tuple(self._sentences)))
        self._sentences = []

    def build(self) -> SourceDocument:
        self._close()
        if not self.chapters:
            raise limits.SourceFileError(
                _("{source} holds no text to narrate.").format(source=self.source)
            )
        title = title_text(self.title, limits.MAX_TITLE_CHARS) or self.chapters[0].title
        return SourceDocument(
            title, self.kind, tuple(self.chapters), self._all_notices(), self.author
        )
