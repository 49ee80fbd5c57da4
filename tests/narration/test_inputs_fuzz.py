"""Every reader, fed anything: it returns a document whose sentences the engine can take, or
raises SourceFileError; nothing else escapes."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.narration.inputs import SourceFileError, limits, read_source
from app.narration.inputs.building import speakable
from app.text.prepare import MAX_SEGMENT_CHARS

FUZZ = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# Characters that matter to the readers: headings, speakers, markup, cue times, CJK, controls.
ALPHABET = st.sampled_from(
    list("ab Z.:：。，!?[]()<>*#_`-\n\n\n\t0123:,>第章一Chapter\x00\x1b\u200b\ufeff&;{}\\/|\"'")
    + [
        "Chapter 1",
        "第一章",
        "Alice: ",
        "[Bob] ",
        "-->",
        "00:00:01,000 --> 00:00:02,000",
        "# ",
        "## ",
        "![x](y)",
        "<script>",
        "</p>",
        "[laugh]",
        "WEBVTT\n\n",
        "\n\n",
    ]
)
TEXTS = st.lists(ALPHABET, max_size=80).map("".join)


def check(doc) -> None:
    assert doc.chapters and doc.title and len(doc.title) <= limits.MAX_TITLE_CHARS
    for chapter in doc.chapters:
        assert chapter.title and len(chapter.title) <= limits.MAX_TITLE_CHARS and chapter.sentences
        for s in chapter.sentences:
            assert (
                0 < len(s.text) <= MAX_SEGMENT_CHARS
                and s.text == s.text.strip()
                and speakable(s.text)
            )
            assert not any(ord(ch) < 32 for ch in s.text)
            assert s.speaker is None or (s.speaker and len(s.speaker) <= 40)
            if doc.timed:
                assert 0 <= s.start <= s.end
            else:
                assert s.start is None and s.end is None


def read(data: bytes, suffix: str, kind: str | None = None):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"input{suffix}"
        path.write_bytes(data)
        try:
            doc = read_source(path, kind)
        except SourceFileError as exc:
            assert str(exc).strip()
            return None
    check(doc)
    return doc


@FUZZ
@given(
    text=TEXTS,
    suffix=st.sampled_from([".txt", ".md", ".srt", ".vtt", ".dat"]),
    encoding=st.sampled_from(["utf-8", "utf-16", "gb18030"]),
)
@example(text="Alice: hi\nBob: there\n", suffix=".txt", encoding="utf-8")
@example(text="1\n00:00:01,000 --> 00:00:02,000\nHi. There.\n", suffix=".srt", encoding="utf-8")
def test_text_formats_never_fail_but_with_a_sentence(text, suffix, encoding):
    read(text.encode(encoding, errors="replace"), suffix)


@FUZZ
@given(text=TEXTS)
def test_a_forced_script_keeps_its_invariants(text):
    read(text.encode("utf-8"), ".txt", kind="script")


@FUZZ
@given(
    data=st.binary(max_size=600),
    suffix=st.sampled_from([".txt", ".md", ".srt", ".vtt", ".epub", ""]),
)
def test_arbitrary_bytes_never_fail_but_with_a_sentence(data, suffix):
    read(data, suffix)


def _epub_bytes() -> bytes:
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("fuzz")
    book.set_title("Fuzz")
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml")
    chapter.content = (
        "<html><body><h1>One</h1><p>Some words here.</p><p>More words.</p></body></html>"
    )
    book.add_item(chapter)
    book.toc = [epub.Link("one.xhtml", "One", "one")]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = ["nav", chapter]
    out = io.BytesIO()
    epub.write_epub(out, book)
    return out.getvalue()


EPUB = _epub_bytes()


@FUZZ
@given(
    flips=st.lists(st.tuples(st.integers(0, len(EPUB) - 1), st.integers(1, 255)), max_size=12),
    cut=st.integers(0, len(EPUB)),
)
@example(flips=[], cut=len(EPUB))
def test_a_damaged_epub_never_fails_but_with_a_sentence(flips, cut):
    data = bytearray(EPUB)
    for at, mask in flips:
        data[at] ^= mask
    doc = read(bytes(data[:cut]), ".epub")
    if not flips and cut == len(EPUB):
        assert doc is not None and [c.title for c in doc.chapters] == ["One"]


@FUZZ
@given(body=TEXTS)
def test_any_chapter_markup_in_a_valid_epub_keeps_the_invariants(body):
    def swap(name, data):
        return (
            data.replace(b"<p>Some words here.</p>", body.encode("utf-8"))
            if name.endswith("one.xhtml")
            else data
        )

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(EPUB)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, swap(info.filename, zin.read(info)))
    read(out.getvalue(), ".epub")
