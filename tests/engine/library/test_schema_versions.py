"""A library written by an earlier schema opens as today's, its rows kept; a newer one is refused.

Version 1 kept the model's kind as a flag (`test_model INTEGER`); version 2 keeps it in words
(`model_kind TEXT`), the kind a history entry says it was made by."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing

import numpy as np
import pytest

from app.core import ModelKind, SchemaError, SynthesisRequest, SynthesisResult
from app.library import HistoryStore, Library
from app.library.schema import MIGRATIONS, SCHEMA_VERSION

REQUEST = '{"text": "hi", "seed": 1}'


def _v1_library(root, flags) -> None:
    """A version-1 file as that program made it, a history row per flag (ids from 1); the newest
    row is then deleted, as the user may, so the id sequence is ahead of the rows."""
    root.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(root / "library.sqlite3")) as con:
        for statement in MIGRATIONS[1]:
            con.execute(statement)
        for n, flag in enumerate([*flags, 1], start=1):
            con.execute(
                "INSERT INTO history (text, request, duration, created, device, synth_seconds, "
                "test_model, speaker) VALUES (?, ?, 1.0, '2026-01-01T00:00:00', 'cpu', 0.5, ?, '')",
                (f"row {n}", REQUEST, flag),
            )
        con.execute("DELETE FROM history WHERE id = ?", (len(flags) + 1,))
        con.execute("PRAGMA user_version = 1")
        con.commit()


def _with_audio(lib: Library) -> HistoryStore:
    lib.audio_dir.mkdir(parents=True, exist_ok=True)
    for (row_id,) in lib.rows("SELECT id FROM history"):
        lib.audio_path(row_id).write_bytes(b"RIFF")  # entries() needs the file to exist
    return HistoryStore(lib)


def test_a_version_1_file_opens_as_version_2_with_each_rows_kind(tmp_path):
    _v1_library(tmp_path, [1, 0, 1])
    lib = Library(tmp_path)
    assert lib.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(4,)]
    assert lib.rows("SELECT id, model_kind FROM history ORDER BY id") == [
        (1, "random-weights"),
        (2, "official"),
        (3, "random-weights"),
    ]
    store = _with_audio(lib)
    assert [(e.text, e.model_kind) for e in store.entries()] == [
        ("row 3", ModelKind.RANDOM_WEIGHTS),
        ("row 2", ModelKind.OFFICIAL),
        ("row 1", ModelKind.RANDOM_WEIGHTS),
    ]
    # The deleted row's id (its audio file's name) is not given out again.
    audio = np.zeros(24, dtype=np.float32)
    result = SynthesisResult(audio, 24000, "cpu", "", 1, 1, 0.1)
    entry = store.add(SynthesisRequest("new"), result, ModelKind.OFFICIAL)
    assert entry.id == "5" and entry.model_kind is ModelKind.OFFICIAL
    assert store.get("5").model_kind is ModelKind.OFFICIAL


def test_a_version_1_flag_that_was_not_a_number_stays_a_skipped_row(tmp_path, caplog):
    _v1_library(tmp_path, [1, "yes"])
    store = _with_audio(Library(tmp_path))
    with caplog.at_level(logging.WARNING, logger="chattts_studio.history"):
        assert [e.text for e in store.entries()] == ["row 1"]
    assert "model_kind" in caplog.text


def test_an_unknown_kind_read_back_skips_the_row_with_a_sentence_naming_the_field(tmp_path, caplog):
    store = HistoryStore(tmp_path)
    result = SynthesisResult(np.zeros(24, dtype=np.float32), 24000, "cpu", "", 1, 1, 0.1)
    good = store.add(SynthesisRequest("good"), result, ModelKind.RANDOM_WEIGHTS)
    bad = store.add(SynthesisRequest("bad"), result, ModelKind.OFFICIAL)
    with store.library.transaction() as con:
        con.execute("UPDATE history SET model_kind = 'gpt' WHERE id = ?", (int(bad.id),))
    with caplog.at_level(logging.WARNING, logger="chattts_studio.history"):
        assert [e.id for e in store.entries()] == [good.id]
    assert "'model_kind' is not valid" in caplog.text
    assert store.get(bad.id) is None
    assert store.get(good.id).model_kind is ModelKind.RANDOM_WEIGHTS


def test_a_file_of_a_newer_schema_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "library.sqlite3"
    with closing(sqlite3.connect(path)) as con:
        con.execute("CREATE TABLE history (id INTEGER PRIMARY KEY)")
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        con.commit()
    with pytest.raises(SchemaError, match="newer ChatTTS Studio"):
        Library(tmp_path)
    with closing(sqlite3.connect(path)) as con:
        assert con.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
