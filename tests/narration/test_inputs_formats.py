"""Markdown and EPUB, built in the test with the libraries that write them: chapters, titles,
text without markup; damaged parts skipped with a notice; the content deciding the format where
the extension says nothing. Subtitles: test_inputs_subtitles.py."""

from __future__ import annotations

import zipfile

import pytest

from app.narration.inputs import SourceFileError, limits, read_source


def texts(chapter):
    return [s.text for s in chapter.sentences]


MARKDOWN = """---
title: not spoken
---
# The Book

Opening words before any chapter.

## One

Some *emphasis*, a [link](https://example.com/x) and `code`.
![a picture](cover.png)

```
print("never read")
```

### A small heading

## Two

<p>Raw <b>HTML</b> text.</p>
"""


def test_markdown_headings_become_chapters_and_markup_becomes_words(tmp_path):
    path = tmp_path / "book.md"
    path.write_text(MARKDOWN, encoding="utf-8")
    doc = read_source(path)
    assert doc.kind == "markdown" and doc.title == "The Book"
    assert [c.title for c in doc.chapters] == ["book", "One", "Two"]
    assert texts(doc.chapters[0]) == ["Opening words before any chapter."]
    assert texts(doc.chapters[1]) == ["Some emphasis, a link and code.", "A small heading"]
    assert texts(doc.chapters[2]) == ["Raw HTML text."]


def make_epub(path, chapters, title="A Test Book", authors=(), front=None, guide=False):
    """`front`: (file name, page bytes) put first in the spine; `guide`: an EPUB2 guide names
    that page the title page."""
    from ebooklib import epub

    book = epub.EpubBook()
    if guide:
        book.guide.append({"type": "title-page", "href": front[0], "title": "Title Page"})
    book.set_identifier("id-1")
    book.set_title(title)
    book.set_language("en")
    for author in authors:
        book.add_author(author)
    spine = []
    if front is not None:
        page = epub.EpubItem(
            uid="front", file_name=front[0], media_type="application/xhtml+xml", content=front[1]
        )
        book.add_item(page)
        spine.append(page)
    items = []
    for i, (name, body) in enumerate(chapters, 1):
        item = epub.EpubHtml(title=name, file_name=f"chap_{i}.xhtml", lang="en")
        item.content = body
        book.add_item(item)
        items.append(item)
    book.toc = [
        epub.Link(f"chap_{i}.xhtml", name, f"c{i}") for i, (name, _) in enumerate(chapters, 1)
    ]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [*spine, "nav", *items]
    epub.write_epub(str(path), book)
    return path


CHAPTERS = [
    (
        "The Start",
        "<html><body><h1>The Start</h1><p>First line.</p><script>alert(1)</script>"
        "<p>Second <i>line</i>.<img src='x.png' alt='a picture'/></p></body></html>",
    ),
    (
        "第二章",
        "<html><head><style>p {}</style></head><body><p>你好，<ruby>世<rt>shì</rt></ruby>界。</p></body></html>",
    ),
]


def test_epub_chapters_follow_the_spine_with_toc_titles_and_text_only(tmp_path):
    doc = read_source(make_epub(tmp_path / "book.epub", CHAPTERS))
    assert doc.kind == "epub" and doc.title == "A Test Book" and doc.notices == ()
    assert [c.title for c in doc.chapters] == ["The Start", "第二章"]
    assert texts(doc.chapters[0]) == ["First line.", "Second line."]
    assert texts(doc.chapters[1]) == ["你好，世界。"]


# What pandoc's EPUB3 writer puts first in the spine (text/title_page.xhtml).
PANDOC_TITLE_PAGE = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
<head><meta charset="utf-8" /><title>A Test Book</title></head>
<body epub:type="frontmatter">
<section epub:type="titlepage" class="titlepage">
  <h1 class="title">A Test Book</h1>
  <p class="author">Jane Doe</p>
  <p class="date">2024-05-01</p>
</section>
</body>
</html>
"""


def make_book_with_front_page(path, name, page: bytes, authors=("Jane Doe",), guide=False):
    """`guide`: an EPUB2 guide names the page the title page."""
    return make_epub(path, CHAPTERS, authors=authors, front=(name, page), guide=guide)


UNMARKED = PANDOC_TITLE_PAGE.replace(b' epub:type="titlepage"', b"").replace(
    b' epub:type="frontmatter"', b""
)


@pytest.mark.parametrize(
    "name, page",
    [
        ("text/title_page.xhtml", PANDOC_TITLE_PAGE),  # pandoc's, as it writes it
        ("front.xhtml", PANDOC_TITLE_PAGE),  # its epub:type says it (a date beside the names)
        ("titlepage.xhtml", UNMARKED),  # its name says it
        (
            "page_1.xhtml",
            b"<html><body><h2>A TEST BOOK</h2><p>Jane Doe</p><p>John Roe</p></body></html>",
        ),
    ],
    ids=["pandoc", "epub-type", "file-name", "only-title-and-authors"],
)
def test_a_title_page_is_not_a_chapter_and_the_author_is_the_books(tmp_path, name, page):
    doc = read_source(
        make_book_with_front_page(tmp_path / "book.epub", name, page, ("Jane Doe", "John Roe"))
    )
    assert [c.title for c in doc.chapters] == ["The Start", "第二章"]
    assert texts(doc.chapters[0]) == ["First line.", "Second line."]
    assert doc.author == "Jane Doe, John Roe"


def test_a_first_chapter_that_names_the_author_among_other_words_is_kept(tmp_path):
    page = b"<html><body><h1>Prologue</h1><p>Jane Doe</p><p>It rained.</p></body></html>"
    doc = read_source(make_book_with_front_page(tmp_path / "book.epub", "prologue.xhtml", page))
    assert texts(doc.chapters[0]) == ["Jane Doe", "It rained."]
    assert len(doc.chapters) == 3 and doc.author == "Jane Doe"


def test_a_book_in_one_file_that_opens_with_its_title_page_is_read_whole(tmp_path):
    parts = b"".join(
        b"<section><h2>Part %d</h2><p>It rained all day in part %d.</p></section>" % (i, i)
        for i in range(1, 61)
    )
    page = PANDOC_TITLE_PAGE.replace(b"</section>", b"</section>" + parts)
    doc = read_source(
        make_book_with_front_page(tmp_path / "book.epub", "text/title_page.xhtml", page)
    )
    words = [s.text for c in doc.chapters for s in c.sentences]
    assert "It rained all day in part 1." in words and "It rained all day in part 60." in words


@pytest.mark.parametrize("parts, kept", [(1, False), (80, True)], ids=["short", "a-whole-book"])
def test_the_page_an_epub2_guide_calls_the_title_page_is_skipped_when_short(tmp_path, parts, kept):
    page = b"<html><body><h1>Front</h1><p>Printed in 2024.</p>%s</body></html>" % b"".join(
        b"<p>It rained all day in part %d.</p>" % i for i in range(1, parts + 1)
    )
    doc = read_source(
        make_book_with_front_page(tmp_path / "book.epub", "page_0.xhtml", page, guide=True)
    )
    words = [s.text for c in doc.chapters for s in c.sentences]
    assert ("Printed in 2024." in words) is kept
    assert [c.title for c in doc.chapters][-2:] == ["The Start", "第二章"]


def rewrite_zip(src, dst, change):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = change(info.filename, zin.read(info))
            if data is not None:
                zout.writestr(info, data)
    return dst


def test_a_missing_chapter_is_skipped_with_a_notice_and_the_rest_kept(tmp_path):
    good = make_epub(tmp_path / "good.epub", CHAPTERS)
    bad = rewrite_zip(
        good,
        tmp_path / "bad.epub",
        lambda name, data: None if name.endswith("chap_1.xhtml") else data,
    )
    doc = read_source(bad)
    assert [c.title for c in doc.chapters] == ["第二章"]
    assert (
        len(doc.notices) == 1 and "chap_1.xhtml" in doc.notices[0] and "skipped" in doc.notices[0]
    )


def test_a_manifest_path_outside_the_book_reads_nothing_from_the_disk(tmp_path):
    (tmp_path / "secret.xhtml").write_text("<p>Secret words on the disk.</p>", encoding="utf-8")
    (tmp_path / "inner").mkdir()
    good = make_epub(tmp_path / "inner" / "good.epub", CHAPTERS)
    bad = rewrite_zip(
        good,
        tmp_path / "inner" / "bad.epub",
        lambda name, data: (
            data.replace(b'href="chap_1.xhtml"', b'href="../../secret.xhtml"')
            if name.endswith(".opf")
            else data
        ),
    )
    doc = read_source(bad)
    assert all("Secret" not in s.text for c in doc.chapters for s in c.sentences)
    assert [c.title for c in doc.chapters] == ["第二章"] and len(doc.notices) == 1


def test_a_chapter_whose_packed_bytes_are_damaged_is_skipped_with_a_notice(tmp_path):
    good = make_epub(tmp_path / "good.epub", CHAPTERS)
    data = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as z:
        info = z.getinfo("EPUB/chap_1.xhtml")
    # The entry's packed data follows its 30-byte local header, name and extra field.
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for i in range(start + 2, start + info.compress_size - 2):
        data[i] ^= 0x5A
    bad = tmp_path / "bad.epub"
    bad.write_bytes(bytes(data))
    doc = read_source(bad)
    assert [c.title for c in doc.chapters] == ["第二章"]
    assert len(doc.notices) == 1 and "chap_1.xhtml" in doc.notices[0]


def test_a_zip_bomb_is_refused_before_unpacking(tmp_path):
    good = make_epub(tmp_path / "good.epub", CHAPTERS)
    bomb = rewrite_zip(good, tmp_path / "bomb.epub", lambda name, data: data)
    with zipfile.ZipFile(bomb, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("OEBPS/padding.bin", b"\0" * (8 * 1024 * 1024))  # 8 MiB packs to ~8 KiB
    with pytest.raises(SourceFileError, match="zip bomb"):
        read_source(bomb)


def test_entity_declarations_and_too_many_entries_are_refused(tmp_path, monkeypatch):
    good = make_epub(tmp_path / "good.epub", CHAPTERS)
    laughs = rewrite_zip(
        good,
        tmp_path / "laughs.epub",
        lambda name, data: (
            data.replace(b"<html", b'<!DOCTYPE html [<!ENTITY lol "lol">]><html', 1)
            if name.endswith("chap_1.xhtml")
            else data
        ),
    )
    with pytest.raises(SourceFileError, match="XML entities"):
        read_source(laughs)
    monkeypatch.setattr(limits, "MAX_ZIP_ENTRIES", 3)
    with pytest.raises(SourceFileError, match="more than 3 files"):
        read_source(good)


@pytest.mark.parametrize("data", [b"PK\x03\x04 not really a zip", b"", b"hello"])
def test_a_file_named_epub_that_is_not_one_is_a_sentence(tmp_path, data):
    path = tmp_path / "book.epub"
    path.write_bytes(data)
    with pytest.raises(SourceFileError, match="not a readable EPUB"):
        read_source(path)


def test_the_content_decides_when_the_extension_says_nothing(tmp_path):
    vtt = tmp_path / "voice.sub"
    vtt.write_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n", encoding="utf-8")
    assert read_source(vtt).kind == "subtitles"
    book = make_epub(tmp_path / "book.epub", CHAPTERS)
    renamed = tmp_path / "book.bin"
    renamed.write_bytes(book.read_bytes())
    assert read_source(renamed).kind == "epub"
