"""A history entry keeps its sentence boundaries (schema 3); a version-2 file opens with none,
and a boundary list read back that does not fit is dropped, the entry kept."""

from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import closing

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core import ModelKind, SegmentMark, SynthesisRequest, SynthesisResult
from app.library import HistoryStore, Library
from app.library.schema import MIGRATIONS, SCHEMA_VERSION

MARKS = [SegmentMark(0, 10, 0, 6), SegmentMark(10, 24, None, None), SegmentMark(24, 24, 7, 12)]


def _result(marks=MARKS) -> SynthesisResult:
    return SynthesisResult(np.zeros(24, dtype=np.float32), 24000, "cpu", "", 1, 3, 0.1, marks=marks)


def test_the_marks_of_a_result_come_back_with_its_entry(tmp_path):
    store = HistoryStore(tmp_path)
    entry = store.add(SynthesisRequest("Hello. Again. Bye."), _result(), ModelKind.OFFICIAL)
    assert entry.marks == MARKS
    assert HistoryStore(tmp_path).get(entry.id).marks == MARKS
    plain = store.add(SynthesisRequest("no marks"), _result([]), ModelKind.OFFICIAL)
    assert store.get(plain.id).marks == []


def test_a_version_2_file_opens_as_version_3_its_entries_without_marks(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with closing(sqlite3.connect(tmp_path / "library.sqlite3")) as con:
        for version in (1, 2):
            for statement in MIGRATIONS[version]:
                con.execute(statement)
        con.execute(
            "INSERT INTO history (text, request, duration, created, device, synth_seconds, "
            "model_kind, speaker) VALUES ('old', '{\"text\": \"old\"}', 1.0, "
            "'2026-01-01T00:00:00', 'cpu', 0.5, 'official', '')"
        )
        con.execute("PRAGMA user_version = 2")
        con.commit()
    lib = Library(tmp_path)
    assert lib.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(4,)]
    assert lib.rows("SELECT id, marks FROM history") == [(1, "")]
    lib.audio_dir.mkdir(parents=True, exist_ok=True)
    lib.audio_path(1).write_bytes(b"RIFF")
    [entry] = HistoryStore(lib).entries()
    assert entry.text == "old" and entry.marks == []


@pytest.mark.parametrize(
    "stored",
    [
        "not json",
        '{"a": 1}',
        "[[0, 10, 0]]",
        "[[0, 10, 0, 6], [5, 24, 7, 12]]",  # overlaps the one before
        "[[10, 0, null, null]]",  # ends before it starts
        "[[0, 10, 6, 2]]",
        "[[0, 10, 0, null]]",
        "[[-1, 10, null, null]]",
        "[[0, true, null, null]]",
        "[[0, 1e3, null, null]]",
        "[" * 100_000 + "]" * 100_000,
        "[" + ",".join(["[0, 0, null, null]"] * 20_001) + "]",
    ],
)
def test_a_boundary_list_that_does_not_fit_is_dropped_and_the_entry_kept(tmp_path, caplog, stored):
    store = HistoryStore(tmp_path)
    entry = store.add(SynthesisRequest("Hello. Again. Bye."), _result(), ModelKind.OFFICIAL)
    with store.library.transaction() as con:
        con.execute("UPDATE history SET marks = ? WHERE id = ?", (stored, int(entry.id)))
    with caplog.at_level(logging.WARNING, logger="chattts_studio.history"):
        [kept] = store.entries()
    assert kept.id == entry.id and kept.text == "Hello. Again. Bye." and kept.marks == []
    assert "sentence boundaries are not valid" in caplog.text


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=30,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    stored=st.one_of(
        _JSON.map(json.dumps),
        st.text(max_size=40),
        st.binary(max_size=40),
        st.integers(),
        st.floats(allow_nan=False),  # NaN is NULL to SQLite, which the column refuses
    )
)
def test_any_stored_marks_load_the_entry_with_valid_marks_or_none(tmp_path, stored):
    store = HistoryStore(tmp_path)
    if not store.entries():
        store.add(SynthesisRequest("Hello."), _result(), ModelKind.OFFICIAL)
    with store.library.transaction() as con:
        con.execute("UPDATE history SET marks = ?", (stored,))
    [entry] = store.entries()
    at = 0
    for mark in entry.marks:
        assert at <= mark.start <= mark.end
        at = mark.end
