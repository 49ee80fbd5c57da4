"""Plain text and dialogue scripts: encodings, chapters at headings, speakers, sentences that
fit one synthesis segment, and every bad file ending in a SourceFileError."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.narration.inputs import SourceFileError, limits, read_source
from app.text.prepare import MAX_SEGMENT_CHARS

# A copy of the team's shared sample (the clone CI tests has no folder beside it).
SAMPLES = Path(__file__).resolve().parent / "data"

BOOK = """The Long Road

Chapter 1: Departure

It was early when they left the village. The road ran
along the river, and nobody spoke for an hour.

* * *

Mr. Smith walked ahead.

CHAPTER TWO

They reached the bridge at noon.
"""


def sentences(doc):
    return [s.text for c in doc.chapters for s in c.sentences]


def test_chapters_start_at_headings_and_wrapped_lines_are_one_sentence(tmp_path):
    path = tmp_path / "road.txt"
    path.write_text(BOOK, encoding="utf-8")
    doc = read_source(path)
    assert doc.kind == "text" and doc.title == "road"
    assert [c.title for c in doc.chapters] == ["road", "Chapter 1: Departure", "CHAPTER TWO"]
    departure = [s.text for s in doc.chapters[1].sentences]
    assert departure == [
        "It was early when they left the village.",
        "The road ran along the river, and nobody spoke for an hour.",
        "Mr. Smith walked ahead.",
    ]  # the scene break "* * *" is not spoken
    assert [s.text for s in doc.chapters[2].sentences] == ["They reached the bridge at noon."]


@pytest.mark.parametrize(
    "encoding", ["utf-8", "utf-8-sig", "gbk", "utf-16", "utf-16-le", "utf-16-be"]
)
def test_chinese_text_reads_the_same_in_every_encoding(tmp_path, encoding):
    text = "第一章 出发\n天刚亮，他们就离开了村子。\n河边的路很长，一个小时没有人说话。\n第二章 桥\n中午他们到了桥边。\n"
    path = tmp_path / "书.txt"
    path.write_bytes(text.encode(encoding))
    doc = read_source(path)
    assert [c.title for c in doc.chapters] == ["第一章 出发", "第二章 桥"]
    # The two lines of one paragraph join without a space, then split at "。".
    assert sentences(doc) == [
        "天刚亮，他们就离开了村子。",
        "河边的路很长，一个小时没有人说话。",
        "中午他们到了桥边。",
    ]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize(
    "text",
    [BOOK, '第一章 出发\nHe said "OK" at 9:30, then left.\n天刚亮，他们就离开了村子。\n'],
    ids=["english", "mixed"],
)
def test_utf16_without_a_byte_order_mark_is_found_by_itself(tmp_path, encoding, text):
    path = tmp_path / "road.txt"
    path.write_bytes(text.encode(encoding))  # "-le"/"-be" write no BOM
    on_disk = tmp_path / "utf8.txt"
    on_disk.write_text(text, encoding="utf-8")
    assert sentences(read_source(path)) == sentences(read_source(on_disk))


def test_a_sample_article_splits_into_segments_the_engine_can_decode_and_keeps_every_word():
    doc = read_source(SAMPLES / "long_article.txt")
    text = sentences(doc)
    assert all(0 < len(s) <= MAX_SEGMENT_CHARS and s == s.strip() for s in text)
    source = (SAMPLES / "long_article.txt").read_text(encoding="utf-8")
    assert "".join("".join(text).split()) == "".join(source.split())


def test_a_paragraph_far_longer_than_the_splitter_takes_at_once_loses_nothing(tmp_path):
    words = [f"word{i}" for i in range(12_000)]  # one 100,000-character line, no full stop
    path = tmp_path / "long.txt"
    path.write_text(" ".join(words), encoding="utf-8")
    doc = read_source(path)
    assert " ".join(sentences(doc)).split() == words
    assert max(len(s) for s in sentences(doc)) <= MAX_SEGMENT_CHARS


def test_a_dialogue_script_sets_each_line_speaker_and_skips_stage_directions(tmp_path):
    path = tmp_path / "scene.txt"
    path.write_text(
        "Alice: Where were you?\n(She turns away.)\n[Bob] At the station.\n"
        "The train was late.\n爱丽丝：我等了很久。\n",
        encoding="utf-8",
    )
    doc = read_source(path)
    assert doc.kind == "script"
    said = [(s.speaker, s.text) for s in doc.chapters[0].sentences]
    assert said == [
        ("Alice", "Where were you?"),
        ("Bob", "At the station."),
        (None, "The train was late."),
        ("爱丽丝", "我等了很久。"),
    ]


def test_prose_with_a_colon_is_not_a_script_unless_asked(tmp_path):
    path = tmp_path / "note.txt"
    path.write_text(
        "Note: the meeting moved.\nWe left at 14:30 and walked.\nIt rained all day.\n"
        "Nobody minded.\n",
        encoding="utf-8",
    )
    assert read_source(path).kind == "text"
    forced = read_source(path, kind="script")
    assert forced.kind == "script"
    assert forced.chapters[0].sentences[0].speaker == "Note"
    assert forced.chapters[0].sentences[1].speaker is None  # a time is not a speaker


def test_control_tokens_are_kept_for_the_engine_but_a_token_alone_is_not_a_sentence(tmp_path):
    path = tmp_path / "tokens.txt"
    path.write_text("Hello [laugh] there.\n\n[uv_break]\n\nBye.\n", encoding="utf-8")
    assert sentences(read_source(path)) == ["Hello [laugh] there.", "Bye."]


def test_chapters_none_keeps_one_chapter_in_reading_order(tmp_path):
    path = tmp_path / "road.txt"
    path.write_text(BOOK, encoding="utf-8")
    whole, flat = read_source(path), read_source(path, chapters=False)
    assert len(flat.chapters) == 1 and sentences(flat) == sentences(whole)


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "does not exist"),
        (b"", "no text to narrate"),
        (b"   \n\n * * * \n", "no text to narrate"),
        (bytes(range(256)) * 40, "not text in an encoding"),
        (b"\x00" * 5000, "not text in an encoding"),
    ],
)
def test_unreadable_files_are_one_sentence(tmp_path, content, message):
    path = tmp_path / "bad.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SourceFileError, match=message):
        read_source(path)


def test_a_folder_a_pipe_and_other_formats_are_refused_by_name(tmp_path):
    import os

    with pytest.raises(SourceFileError, match="is a folder"):
        read_source(tmp_path)
    os.mkfifo(tmp_path / "pipe.txt")
    with pytest.raises(SourceFileError, match="not a regular file"):
        read_source(tmp_path / "pipe.txt")  # never opened: reading a pipe would block
    (tmp_path / "book.pdf").write_bytes(b"%PDF-1.7")
    with pytest.raises(SourceFileError, match="PDF file"):
        read_source(tmp_path / "book.pdf")


def test_caps_on_size_chapters_and_sentences_are_sentences(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    path.write_text("Chapter 1\nOne. Two. Three.\nChapter 2\nFour.\n", encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_SENTENCES", 3)
    with pytest.raises(SourceFileError, match="more than 3 sentences"):
        read_source(path)
    monkeypatch.setattr(limits, "MAX_SENTENCES", 100)
    monkeypatch.setattr(limits, "MAX_CHAPTERS", 1)
    with pytest.raises(SourceFileError, match="more than 1 chapters"):
        read_source(path)
    monkeypatch.setattr(limits, "MAX_TEXT_BYTES", 10)
    with pytest.raises(SourceFileError, match="larger than the limit"):
        read_source(path)


def test_a_heading_shaped_sentence_stays_text():
    from app.narration.inputs.headings import is_heading

    assert is_heading("Chapter XII") and is_heading("CHAPTER ONE") and is_heading("Part Two: Home")
    assert is_heading("第十二回 大闹天宫") and is_heading("楔子") and is_heading("Prologue")
    assert not is_heading("Chapter 1 was the longest of all the chapters we read.")
    assert not is_heading("Part of me wanted to stay.")
    assert not is_heading(
        "第一次见面的时候，他没有说话，只是看着窗外的雨一直下个不停，直到天黑也没有停下来的意思，"
        * 2
    )
