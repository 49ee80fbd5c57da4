"""Exports are written whole or not at all, and never over a user's file unless asked."""

from __future__ import annotations

import errno
import json

import numpy as np
import pytest
import soundfile as sf

from app.narration.export import (
    ExportCancelled,
    ExportError,
    ExportSettings,
    export,
    format_for_path,
)
from app.narration.export.paths import chapter_file, safe_name
from app.narration.rendered import RenderedChapter, RenderedSentence

RATE = 24_000


def tone(seconds: float) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return (0.1 * np.sin(2 * np.pi * 220 * t)).astype(np.float32)


def book(seconds: float = 1.0) -> list[RenderedChapter]:
    return [
        RenderedChapter(
            "One", (RenderedSentence("a", tone(seconds)), RenderedSentence("b", tone(seconds)))
        ),
        RenderedChapter("Two", (RenderedSentence("c", tone(seconds)),)),
    ]


def listing(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_an_existing_file_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "book.mp3").write_bytes(b"the user's own file")
    with pytest.raises(ExportError, match="already exists"):
        export(book(), ExportSettings(format="mp3"), tmp_path / "book.mp3")
    assert (tmp_path / "book.mp3").read_bytes() == b"the user's own file"
    assert listing(tmp_path) == ["book.mp3"]


def test_an_existing_subtitle_file_is_refused_too(tmp_path):
    (tmp_path / "book.srt").write_text("mine")
    with pytest.raises(ExportError, match="book.srt"):
        export(book(), ExportSettings(format="wav", subtitles="srt"), tmp_path / "book.wav")
    assert listing(tmp_path) == ["book.srt"]


def test_overwrite_replaces_it(tmp_path):
    (tmp_path / "book.wav").write_bytes(b"old")
    export(book(), ExportSettings(format="wav"), tmp_path / "book.wav", overwrite=True)
    assert sf.info(tmp_path / "book.wav").frames > 0
    assert listing(tmp_path) == ["book.wav"]


def test_a_file_that_appears_while_exporting_is_not_replaced(tmp_path):
    target = tmp_path / "book.flac"

    def someone_saves_there(done, total):
        target.write_bytes(b"saved meanwhile")

    with pytest.raises(ExportError, match="appeared while exporting"):
        export(book(), ExportSettings(format="flac"), target, progress=someone_saves_there)
    assert target.read_bytes() == b"saved meanwhile"
    assert listing(tmp_path) == ["book.flac"]


def test_a_full_disk_mid_write_leaves_nothing(tmp_path, monkeypatch):
    written = []
    real_write = sf.SoundFile.write

    def write_then_fail(self, data):
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(len(data))
        return real_write(self, data)

    monkeypatch.setattr(sf.SoundFile, "write", write_then_fail)
    with pytest.raises(ExportError, match="disk is full"):
        export(book(seconds=4), ExportSettings(format="flac"), tmp_path / "book.flac")
    assert written, "the failure came after part of the file was written"
    assert listing(tmp_path) == []


def test_a_failure_on_the_last_file_takes_back_the_chapter_files(tmp_path, monkeypatch):
    calls = []
    real_write = sf.SoundFile.write

    def fail_on_the_one_file(self, data):
        calls.append(self.name)
        if "book.wav" in self.name.rsplit("/", 1)[-1] and len(calls) > 2:
            raise OSError(errno.EIO, "Input/output error")
        return real_write(self, data)

    monkeypatch.setattr(sf.SoundFile, "write", fail_on_the_one_file)
    with pytest.raises(ExportError, match="could not be written"):
        export(
            book(),
            ExportSettings(format="wav", per_chapter=True, subtitles="vtt"),
            tmp_path / "book.wav",
        )
    assert len(calls) >= 3  # both chapter files were written before
    assert listing(tmp_path) == []  # no temporary file, no chapter folder


@pytest.mark.parametrize("fmt", ["m4b", "opus"])
def test_cancel_mid_write_leaves_nothing(tmp_path, fmt):
    asked = []

    def stop_after_a_while():
        asked.append(1)
        return len(asked) > 6

    with pytest.raises(ExportCancelled) as caught:
        export(
            book(seconds=6),
            ExportSettings(format=fmt, per_chapter=True),
            tmp_path / "out",
            should_stop=stop_after_a_while,
        )
    assert caught.value.exit_code == 130
    assert listing(tmp_path) == []


def test_a_complete_export_leaves_only_its_files(tmp_path):
    report = export(
        book(), ExportSettings(format="ogg", per_chapter=True, subtitles="srt"), tmp_path / "b"
    )
    assert listing(tmp_path) == [
        "b",
        "b.ogg",
        "b.srt",
        "b/01 One.ogg",
        "b/01 One.srt",
        "b/02 Two.ogg",
        "b/02 Two.srt",
    ]
    assert {str(f.path.relative_to(tmp_path)) for f in report.files} == set(listing(tmp_path)) - {
        "b"
    }
    data = json.loads(json.dumps(report.to_json()))  # what `narrate --json` can print
    assert data["files"][0]["sentences"] and data["files"][0]["path"] == str(
        tmp_path / "b" / "01 One.ogg"
    )


def test_a_suffix_of_another_format_is_a_sentence(tmp_path):
    with pytest.raises(ExportError, match="suffix of mp3"):
        export(book(), ExportSettings(format="flac"), tmp_path / "book.mp3")
    assert format_for_path("x/Book.M4B") == "m4b" and format_for_path("book.txt") is None


def test_a_folder_as_target_is_a_sentence(tmp_path):
    (tmp_path / "book.wav").mkdir()
    with pytest.raises(ExportError, match="is a folder"):
        export(book(), ExportSettings(format="wav"), tmp_path / "book.wav")


def test_chapters_without_audio_are_left_out_with_a_sentence(tmp_path):
    chapters = [RenderedChapter("Empty", ()), *book()]
    report = export(chapters, ExportSettings(format="wav"), tmp_path / "b.wav")
    assert any("Empty" in w for w in report.warnings)
    assert len(report.audio().chapter_starts) == 2
    with pytest.raises(ExportError, match="nothing to export"):
        export(
            [RenderedChapter("Empty", (RenderedSentence("x", np.zeros(0, np.float32)),))],
            ExportSettings(format="wav"),
            tmp_path / "c.wav",
        )


@pytest.mark.parametrize(
    "title, name",
    [
        ("Chapter 1: The Start", "Chapter 1 The Start"),
        ('a/b\\c?*"<>|', "a b c"),
        ("CON", "Chapter 3"),
        ("...", "Chapter 3"),
        ("x" * 300, "x" * 80),
        ("第一章 开始", "第一章 开始"),
    ],
)
def test_chapter_file_names_any_file_system_takes(tmp_path, title, name):
    assert safe_name(title, "Chapter 3") == name
    assert chapter_file(tmp_path, 2, 120, title, "mp3").name == f"003 {name}.mp3"
