"""A text file or piped input is hostile: read at most what the limit allows, in UTF-8 (with or
without a BOM) or GBK (Notepad on Chinese Windows), and anything else refused in a sentence."""

import io

import pytest

from app.core.errors import InputTextError
from app.text.prepare import (
    MAX_TEXT_BYTES,
    MAX_TEXT_CHARS,
    check_text,
    decode_text,
    read_capped,
    read_text_file,
)


def test_utf8_with_or_without_bom_and_gbk_decode_to_the_same_text():
    text = "你好，世界。Hello."
    assert decode_text(text.encode("utf-8"), "in") == text
    assert decode_text(b"\xef\xbb\xbf" + text.encode("utf-8"), "in") == text  # the BOM is not text
    assert decode_text(text.encode("gbk"), "in") == text


def test_bytes_that_are_neither_utf8_nor_gbk_are_refused_naming_the_source():
    with pytest.raises(InputTextError, match="notes.txt"):
        decode_text(b"\xff\xff\xff", "notes.txt")


def test_input_is_capped_at_the_byte_limit():
    assert len(read_capped(io.BytesIO(b"a" * MAX_TEXT_BYTES), "stdin")) == MAX_TEXT_BYTES
    with pytest.raises(InputTextError, match="stdin"):
        read_capped(io.BytesIO(b"a" * (MAX_TEXT_BYTES + 1)), "stdin")
    endless = io.BufferedReader(io.BytesIO(b"\0" * (MAX_TEXT_BYTES * 2)))
    with pytest.raises(InputTextError):
        read_capped(endless, "/dev/zero")


def test_text_at_the_character_limit_is_accepted_and_one_more_refused():
    assert check_text("a" * MAX_TEXT_CHARS) == "a" * MAX_TEXT_CHARS
    with pytest.raises(InputTextError):
        check_text("a" * (MAX_TEXT_CHARS + 1))


def test_reading_a_file(tmp_path, monkeypatch):
    (tmp_path / "gbk.txt").write_bytes("两个苹果".encode("gbk"))
    assert read_text_file(tmp_path / "gbk.txt") == "两个苹果"
    monkeypatch.setenv("HOME", str(tmp_path))
    assert read_text_file("~/gbk.txt") == "两个苹果"  # ~ is the user's folder


def test_a_missing_file_a_folder_and_an_unreadable_file_are_sentences(tmp_path):
    with pytest.raises(InputTextError, match="does not exist"):
        read_text_file(tmp_path / "nope.txt")
    with pytest.raises(InputTextError, match="is a folder"):
        read_text_file(tmp_path)
    (tmp_path / "big.txt").write_bytes(b"a" * (MAX_TEXT_BYTES + 1))
    with pytest.raises(InputTextError, match="big.txt"):
        read_text_file(tmp_path / "big.txt")


def test_a_file_that_is_not_text_is_named_in_the_sentence(tmp_path):
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff\xff\xff")
    with pytest.raises(InputTextError, match="photo.jpg"):
        read_text_file(tmp_path / "photo.jpg")
