"""Input files for narration -> SourceDocument (app/narration/source.py).

`read_source(path)` picks the reader from the extension, or from the content when the
extension says nothing: .txt (a dialogue script when most lines name a speaker), .md,
.epub, .srt/.vtt. Every failure is a SourceFileError whose message names the file; what a
reader had to skip is in the document's `notices`. A chapter's title is its name, not one
of its sentences.

    limits.py     caps and the error      files.py     reading, encodings
    building.py   chapters, sentences     cleaning.py  invisible characters, wrapped lines
    plain.py      .txt and scripts        headings.py  "Chapter 1", "第一章"
    script.py     "Alice: ..." lines      markdown.py  .md
    epub.py       .epub                   html_text.py XHTML -> paragraphs
    subtitles.py  .srt, .vtt
"""

from __future__ import annotations

import os
from pathlib import Path

from app.i18n import _
from app.narration.inputs import limits
from app.narration.inputs.limits import SourceFileError
from app.narration.source import SourceChapter, SourceDocument

KINDS = ("text", "markdown", "epub", "subtitles", "script")
EXTENSIONS = {
    ".txt": "text",
    ".text": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".epub": "epub",
    ".srt": "subtitles",
    ".vtt": "subtitles",
}
# Formats people try that we do not read, and what to turn them into.
_OTHER_FORMATS = {
    ".pdf": "PDF",
    ".doc": "Word",
    ".docx": "Word",
    ".odt": "OpenDocument",
    ".rtf": "RTF",
    ".mobi": "Mobipocket",
    ".azw": "Kindle",
    ".azw3": "Kindle",
    ".fb2": "FictionBook",
    ".ass": "ASS",
    ".ssa": "SSA",
}

__all__ = ["KINDS", "SourceFileError", "kind_of", "read_source"]


def kind_of(path: Path, head: bytes) -> str:
    """The reader for `path`, from its extension, else from its first bytes."""
    suffix = path.suffix.lower()
    if suffix in EXTENSIONS:
        return EXTENSIONS[suffix]
    if suffix in _OTHER_FORMATS:
        raise SourceFileError(
            _(
                "{path} is a {format} file, which narration does not read; save it as "
                "EPUB, Markdown, plain text or SRT/WebVTT subtitles."
            ).format(path=path, format=_OTHER_FORMATS[suffix])
        )
    if head.startswith(b"PK\x03\x04"):
        if b"application/epub+zip" in head[:100]:
            return "epub"
        raise SourceFileError(_("{path} is a zip archive but not an EPUB book.").format(path=path))
    stripped = head.lstrip(b"\xef\xbb\xbf").lstrip()
    if stripped.startswith(b"WEBVTT"):
        return "subtitles"
    if b"-->" in head[:2000] and b"00:" in head[:2000]:
        return "subtitles"
    return "text"


def read_source(
    path: os.PathLike | str, kind: str | None = None, *, chapters: bool = True
) -> SourceDocument:
    """The document in `path`. `kind`: one of KINDS to force a reader ("script" reads a .txt as
    a dialogue script). `chapters=False` keeps one chapter of everything, in order."""
    from app.narration.inputs.files import file_size, read_bytes

    path = Path(path).expanduser()
    if kind is not None and kind not in KINDS:
        raise ValueError(kind)
    file_size(path)
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as exc:
        raise SourceFileError(
            _("The input file {path} cannot be read ({error}).").format(
                path=path, error=exc.strerror or exc
            )
        ) from None
    asked, kind = kind, kind or kind_of(path, head)
    title = path.stem
    source = str(path)
    if kind == "epub":
        from app.narration.inputs.epub import read_epub

        document = read_epub(path, source, title)
    else:
        from app.narration.inputs.files import decode_text

        text = decode_text(read_bytes(path, limits.MAX_TEXT_BYTES), source)
        if kind == "markdown":
            from app.narration.inputs.markdown import read_markdown

            document = read_markdown(text, source, title)
        elif kind == "subtitles":
            from app.narration.inputs.subtitles import read_subtitles

            fmt = {".srt": "srt", ".vtt": "vtt"}.get(path.suffix.lower())
            document = read_subtitles(text, source, title, fmt)
        else:
            from app.narration.inputs.plain import read_text

            # None: decide from the lines
            script = {"script": True, "text": False}.get(asked) if asked else None
            document = read_text(text, source, title, script=script)
    return document if chapters else one_chapter(document)


def one_chapter(document: SourceDocument) -> SourceDocument:
    sentences = tuple(s for chapter in document.chapters for s in chapter.sentences)
    return SourceDocument(
        document.title,
        document.kind,
        (SourceChapter(document.title, sentences),),
        document.notices,
        document.author,
    )
