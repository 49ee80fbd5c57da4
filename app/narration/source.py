"""What an input file becomes: chapters of sentences, before any audio exists.

Every reader in `inputs/` returns a SourceDocument; the project is created from one. A
sentence is one unit of synthesis and of subtitles: short enough to decode alone
(at most `app.text.prepare.MAX_SEGMENT_CHARS` characters).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceSentence:
    text: str
    speaker: str | None = None  # a dialogue script's speaker name, as written
    start: float | None = None  # subtitles (timed voice-over): the cue's start, seconds
    end: float | None = None  # and its end; a cue's text may be one or more sentences


@dataclass(frozen=True)
class SourceChapter:
    title: str
    sentences: tuple[SourceSentence, ...]


@dataclass(frozen=True)
class SourceDocument:
    title: str
    kind: str  # "text", "markdown", "epub", "subtitles" or "script"
    chapters: tuple[SourceChapter, ...]
    notices: tuple[str, ...] = field(default=())  # sentences about what was skipped and why
    author: str = ""  # an EPUB's creators ("A, B"): the artist tag of an export

    @property
    def timed(self) -> bool:
        return self.kind == "subtitles"
