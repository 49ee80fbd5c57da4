"""Export settings come from the project file: every field is checked, a bad one falls back
to its default with a sentence and the others are kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.narration.export import ExportSettings, parse_settings


def test_defaults_are_the_issue_s():
    s = ExportSettings()
    assert (s.loudness, s.one_file, s.per_chapter, s.subtitles) == (-18.0, True, False, None)
    assert 0 < s.sentence_pause < s.chapter_pause


@pytest.mark.parametrize(
    "field, value",
    [
        ("format", "aiff"),
        ("loudness", 3.0),
        ("loudness", -90.0),
        ("loudness", float("nan")),
        ("sentence_pause", -0.1),
        ("sentence_pause", 1e9),
        ("chapter_pause", float("inf")),
        ("bitrate", 4),
        ("bitrate", 100_000),
        ("subtitles", "ass"),
    ],
)
def test_out_of_range_values_are_refused(field, value):
    with pytest.raises(ValidationError):
        ExportSettings(**{field: value})


def test_nothing_to_write_is_refused():
    with pytest.raises(ValidationError):
        ExportSettings(one_file=False, per_chapter=False)


def test_a_bad_field_falls_back_alone_with_a_sentence():
    s, notices = parse_settings(
        {"format": "m4b", "loudness": "loud", "sentence_pause": 0.5, "junk": 1}
    )
    assert (s.format, s.loudness, s.sentence_pause) == ("m4b", -18.0, 0.5)
    assert len(notices) == 1 and "loudness" in notices[0]


def test_neither_one_file_nor_chapters_falls_back_to_one_file():
    s, notices = parse_settings({"one_file": False, "per_chapter": False, "format": "opus"})
    assert (s.one_file, s.format) == (True, "opus") and notices


def test_loudness_off_is_kept():
    assert parse_settings({"loudness": None})[0].loudness is None


@pytest.mark.parametrize("data", [None, [], "mp3", 3])
def test_not_an_object_gives_defaults(data):
    s, notices = parse_settings(data)
    assert s == ExportSettings()
    assert bool(notices) == (data is not None)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
keys = st.sampled_from(list(ExportSettings.model_fields) + ["other"])


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(keys, json_values | st.sampled_from(["wav", "m4b", "srt", "vtt"]), max_size=9)
)
def test_any_json_object_gives_valid_settings(data):
    s, notices = parse_settings(data)
    again = ExportSettings.model_validate(
        json.loads(s.model_dump_json())
    )  # a valid, storable record
    assert again == s
    for name in ExportSettings.model_fields:
        if getattr(s, name) != getattr(ExportSettings(), name):
            assert (
                name in data
            )  # a value other than the default came from the input, never invented
    valid = (
        ExportSettings.model_validate({k: v for k, v in data.items() if k != "other"})
        if not notices
        else None
    )
    if valid is not None:
        assert valid == s  # no notice: exactly what the input says
