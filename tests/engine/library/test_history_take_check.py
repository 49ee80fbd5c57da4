"""A history entry keeps what the take checker found (schema 4); a version-3 file opens with its
entries unchecked, and a stored check that does not fit is dropped, the entry kept."""

from __future__ import annotations

import logging
import sqlite3
from contextlib import closing

import numpy as np
import pytest

from app.audio import Finding, FindingKind
from app.core import ModelKind, SynthesisRequest, SynthesisResult
from app.i18n import again, set_language
from app.library import HistoryStore, Library, TakeCheck
from app.library.schema import MIGRATIONS, SCHEMA_VERSION

FLAGGED = TakeCheck(True, (Finding.of(FindingKind.NO_SPEECH, 0.03, 0.15),))


def _result() -> SynthesisResult:
    return SynthesisResult(np.zeros(24, dtype=np.float32), 24000, "cpu", "", 1, 1, 0.1)


def test_a_check_stored_with_a_result_comes_back_with_its_reason(tmp_path):
    store = HistoryStore(tmp_path)
    entry = store.add(SynthesisRequest("Hello."), _result(), ModelKind.RANDOM_WEIGHTS)
    assert entry.take_check is None  # not checked yet
    assert store.set_take_check(entry.id, FLAGGED)
    back = HistoryStore(tmp_path).get(entry.id).take_check
    assert back.checked and back.flagged
    [finding] = back.findings
    assert finding.kind is FindingKind.NO_SPEECH
    assert (finding.value, finding.limit) == pytest.approx((0.03, 0.15))
    assert "no speech" in str(finding.reason)
    set_language("zh_CN")
    assert "没有语音" in str(again(finding.reason))
    clean = store.add(SynthesisRequest("Fine."), _result(), ModelKind.OFFICIAL, TakeCheck(True))
    assert store.get(clean.id).take_check == TakeCheck(True, ())
    unchecked = store.add(SynthesisRequest("No VAD."), _result(), ModelKind.OFFICIAL)
    assert store.set_take_check(unchecked.id, TakeCheck(False))
    assert store.get(unchecked.id).take_check == TakeCheck(False, ())
    assert not store.set_take_check("999", FLAGGED)  # no such entry
    assert not store.set_take_check("../1", FLAGGED)


def test_a_version_3_file_opens_as_version_4_its_entries_unchecked(tmp_path):
    with closing(sqlite3.connect(tmp_path / "library.sqlite3")) as con:
        for version in (1, 2, 3):
            for statement in MIGRATIONS[version]:
                con.execute(statement)
        con.execute(
            "INSERT INTO history (text, request, duration, created, device, synth_seconds, "
            "model_kind, speaker, marks) VALUES ('old', '{\"text\": \"old\"}', 1.0, "
            "'2026-01-01T00:00:00', 'cpu', 0.5, 'official', '', '')"
        )
        con.execute("PRAGMA user_version = 3")
        con.commit()
    lib = Library(tmp_path)
    assert lib.rows("PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(4,)]
    assert lib.rows("SELECT id, take_check FROM history") == [(1, "")]
    lib.audio_dir.mkdir(parents=True, exist_ok=True)
    lib.audio_path(1).write_bytes(b"RIFF")
    [entry] = HistoryStore(lib).entries()
    assert entry.text == "old" and entry.take_check is None


@pytest.mark.parametrize(
    "stored",
    [
        "not json",
        "[]",
        '{"findings": []}',
        '{"checked": 1, "findings": []}',
        '{"checked": true, "findings": [["gibberish", 1, 2]]}',
        '{"checked": true, "findings": [[["no_speech"], 1, 2]]}',
        '{"checked": true, "findings": [["no_speech", "1", 2]]}',
        '{"checked": true, "findings": [["no_speech", 1e999, 2]]}',
        '{"checked": true, "findings": [["no_speech", 1, 2, 3]]}',
        '{"checked": true, "findings": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"checked": true, "findings": [' + ",".join(['["level", 1, 2]'] * 9) + "]}",
    ],
)
def test_a_stored_check_that_does_not_fit_is_dropped_and_the_entry_kept(tmp_path, caplog, stored):
    store = HistoryStore(tmp_path)
    entry = store.add(SynthesisRequest("Hello."), _result(), ModelKind.OFFICIAL)
    with store.library.transaction() as con:
        con.execute("UPDATE history SET take_check = ? WHERE id = ?", (stored, int(entry.id)))
    with caplog.at_level(logging.WARNING, logger="chattts_studio.history"):
        [back] = store.entries()
    assert back.id == entry.id and back.take_check is None
    assert "take check is not valid" in caplog.text
