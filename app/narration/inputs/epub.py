"""EPUB (ebooklib): chapters in spine order, titled from the table of contents or the
chapter's first heading, HTML reduced to text; a title page is not a chapter, and the book's
creators are its author (an export's artist tag).

The zip is checked before ebooklib opens it: entry count, each entry's and the total unpacked
size, the packing ratio (a zip bomb is refused), and entities in its XML (never expanded).
Entry names are looked up inside the zip only: "../" in a manifest never reaches the disk.
An entry that is missing or damaged costs only its chapter, with a notice.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
import zlib
from pathlib import Path

from app.i18n import _
from app.narration.inputs import limits
from app.narration.inputs.building import DocumentBuilder
from app.narration.inputs.cleaning import one_line
from app.narration.inputs.files import file_size, too_large
from app.narration.inputs.html_text import html_blocks
from app.narration.inputs.limits import SourceFileError
from app.narration.source import SourceDocument

_ENTITY = re.compile(rb"<!ENTITY", re.IGNORECASE)
# A title page is front matter, not a chapter: marked so (EPUB3 epub:type, an EPUB2 guide entry),
# named so (pandoc: text/title_page.xhtml; calibre: titlepage.xhtml), or holding nothing but the
# book's title and authors (tests/narration/test_inputs_formats.py).
_TITLE_PAGE_TYPE = re.compile(rb"""epub:type\s*=\s*["'][^"']{0,200}\btitlepage\b""", re.IGNORECASE)
_TITLE_PAGE_NAMES = ("title_page", "titlepage", "title-page")
_MAX_AUTHORS = 20
_MAX_TITLE_PAGE_CHARS = 2000  # a title page with a long abstract is still under it
_BOMB_FLOOR = 1024 * 1024  # small entries may pack well (a page of spaces); large ones may not


def _not_epub(path: Path) -> SourceFileError:
    return SourceFileError(
        _(
            "{path} is not a readable EPUB book (its zip structure or package file is damaged)."
        ).format(path=path)
    )


def check_zip(path: Path) -> None:
    """Refuse, before anything is unpacked, a zip that would unpack to more than we allow."""
    if file_size(path) > limits.MAX_EPUB_BYTES:
        raise too_large(path, limits.MAX_EPUB_BYTES)
    try:
        with zipfile.ZipFile(path) as zf:
            entries = zf.infolist()
            if len(entries) > limits.MAX_ZIP_ENTRIES:
                raise SourceFileError(
                    _("{path} holds more than {limit} files; it is not a book we read.").format(
                        path=path, limit=f"{limits.MAX_ZIP_ENTRIES:,}"
                    )
                )
            total = 0
            for entry in entries:
                total += entry.file_size
                ratio = entry.file_size / max(entry.compress_size, 1)
                if (
                    entry.file_size > limits.MAX_ZIP_ENTRY_BYTES
                    or total > limits.MAX_ZIP_TOTAL_BYTES
                    or (entry.file_size > _BOMB_FLOOR and ratio > limits.MAX_ZIP_RATIO)
                ):
                    raise SourceFileError(
                        _(
                            "{path} unpacks to far more data than a book holds (a "
                            '"zip bomb"); it was not opened.'
                        ).format(path=path)
                    )
            for entry in entries:
                if entry.filename.lower().endswith(
                    (".opf", ".ncx", ".xhtml", ".html", ".htm", ".xml")
                ):
                    if _ENTITY.search(_read_or_empty(zf, entry)):
                        raise SourceFileError(
                            _(
                                "{path} declares XML entities, which books never need; "
                                "it was not opened."
                            ).format(path=path)
                        )
    except SourceFileError:
        raise
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError, NotImplementedError):
        raise _not_epub(path) from None


def _read_or_empty(zf: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    """A damaged entry is skipped here; its chapter alone is skipped when the book is read."""
    try:
        return zf.read(entry)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, ValueError):
        return b""


def _reader(path: Path, missing: set[str]):
    from ebooklib import epub

    class TolerantReader(epub.EpubReader):
        """An entry that cannot be read becomes empty and is remembered, so its chapter alone
        is skipped."""

        def read_file(self, name):
            try:
                return super().read_file(name)
            except (
                KeyError,
                zipfile.BadZipFile,
                zlib.error,
                EOFError,
                NotImplementedError,
                ValueError,
            ):
                missing.add(posixpath.normpath(name))
                return b""

    return TolerantReader(str(path), {"ignore_ncx": False})


def _toc_titles(toc) -> dict[str, str]:
    """Href (without #fragment) -> the first title the table of contents gives it."""
    titles: dict[str, str] = {}
    stack = list(reversed(list(toc or ())))
    while stack:
        entry = stack.pop()
        if isinstance(entry, (tuple, list)):
            stack.extend(reversed(list(entry)))
            continue
        href, title = getattr(entry, "href", None), getattr(entry, "title", None)
        if isinstance(href, str) and isinstance(title, str):
            titles.setdefault(posixpath.normpath(href.split("#")[0]), title)
    return titles


def _chapter_text(content: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UnicodeDecodeError("utf-8", content[:1], 0, 1, "neither UTF-8 nor UTF-16")


def read_epub(path: Path, source: str, title: str) -> SourceDocument:
    from ebooklib import ITEM_DOCUMENT, epub

    check_zip(path)
    missing: set[str] = set()
    reader = _reader(path, missing)
    try:
        book = reader.load()
    except SourceFileError:
        raise
    except Exception:  # ebooklib and lxml raise many kinds of errors on a damaged package
        raise _not_epub(path) from None
    names = book.get_metadata("DC", "title") or []
    book_title = names[0][0] if names and isinstance(names[0][0], str) else ""
    authors = _authors(book)
    doc = DocumentBuilder(
        source,
        "epub",
        one_line(book_title) or title,
        author=one_line(", ".join(authors))[: limits.MAX_TITLE_CHARS],
    )
    toc = _toc_titles(book.toc)
    title_pages = _guide_title_pages(book)
    known = {one_line(n).casefold() for n in (book_title, *authors) if one_line(n)}
    for idref, linear in _spine(book):
        item = book.get_item_with_id(idref)
        if item is None or item.get_type() != ITEM_DOCUMENT or isinstance(item, epub.EpubNav):
            continue
        if linear == "no":
            continue  # notes and asides outside the reading order
        name = posixpath.normpath(item.get_name() or "")
        try:
            if posixpath.normpath(posixpath.join(reader.opf_dir, name)) in missing:
                raise ValueError("entry missing or damaged in the zip")
            blocks = html_blocks(_chapter_text(item.get_content()))
        except Exception:
            doc.notice(
                _("The chapter {name} of {source} is damaged and was skipped.").format(
                    name=name, source=source
                )
            )
            continue
        if _is_title_page(name, item.content, blocks, known, name in title_pages):
            continue
        _add_chapter(doc, toc.get(name), blocks)
    return doc.build()


def _authors(book) -> list[str]:
    creators = book.get_metadata("DC", "creator") or []
    names = (
        one_line(c[0])
        for c in creators[:_MAX_AUTHORS]
        if isinstance(c, tuple) and isinstance(c[0], str)
    )
    return list(dict.fromkeys(n for n in names if n))


def _guide_title_pages(book) -> set[str]:
    """Documents an EPUB2 guide calls the title page."""
    pages = set()
    for ref in (book.guide or [])[:100]:
        if (
            isinstance(ref, dict)
            and ref.get("type") == "title-page"
            and isinstance(ref.get("href"), str)
        ):
            pages.add(posixpath.normpath(ref["href"].split("#")[0]))
    return pages


def _is_title_page(name: str, content, blocks, known: set[str], in_guide: bool) -> bool:
    texts = [one_line(text).casefold() for _heading, text in blocks]
    # A long page is a book in one file that starts with its title page: it is read.
    if sum(map(len, texts)) > _MAX_TITLE_PAGE_CHARS:
        return False
    stem = posixpath.splitext(posixpath.basename(name))[0].lower()
    if in_guide or stem in _TITLE_PAGE_NAMES:
        return True
    if isinstance(content, bytes) and _TITLE_PAGE_TYPE.search(content):
        return True
    return bool(known) and bool(texts) and all(t in known for t in texts)


def _spine(book):
    for entry in book.spine or ():
        if isinstance(entry, (tuple, list)) and entry and isinstance(entry[0], str):
            yield entry[0], entry[1] if len(entry) > 1 else "yes"
        elif isinstance(entry, str):
            yield entry, "yes"


def _add_chapter(doc: DocumentBuilder, toc_title: str | None, blocks) -> None:
    heading = next((text for is_heading, text in blocks if is_heading), None)
    chapter_title = one_line(toc_title or "") or heading
    doc.chapter(chapter_title)
    for i, (is_heading, text) in enumerate(blocks):
        if (
            i == 0
            and is_heading
            and chapter_title
            and one_line(text).casefold() == chapter_title.casefold()
        ):
            continue  # the title itself, already the chapter's name
        doc.text(text)
