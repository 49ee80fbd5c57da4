"""Arbitrary legacy files and rows: the library skips what does not fit, never raises, never
writes outside its folders."""

import json
import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.library import HistoryStore, Library, PronunciationDictionary, VoiceLibrary
from app.library.records import (
    HistoryRecord,
    LegacyHistoryRecord,
    LexiconEntry,
    RecordError,
    VoiceRecord,
    parse,
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=20,
)
FIELD_NAMES = st.sampled_from(
    [
        "name",
        "speaker",
        "seed",
        "notes",
        "created",
        "reference",
        "reference_text",
        "text",
        "request",
        "duration",
        "device",
        "synth_seconds",
        "test_model",
        "model_kind",
        "wav",
        "id",
        "word",
        "replacement",
    ]
)
RECORDS = st.dictionaries(FIELD_NAMES, JSON, max_size=10)
FAST = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FAST
@given(record=st.one_of(RECORDS, JSON))
def test_record_parsers_raise_only_record_errors(record):
    for model in (VoiceRecord, HistoryRecord, LegacyHistoryRecord, LexiconEntry):
        try:
            parse(model, record, "fuzz.json")
        except RecordError as exc:
            assert "fuzz.json" in str(exc) and exc.field


def _tree(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@FAST
@given(
    index=st.one_of(st.lists(RECORDS, max_size=5), JSON),
    voice=st.one_of(RECORDS, JSON),
    words=st.one_of(st.dictionaries(st.text(max_size=8), JSON, max_size=5), JSON),
    raw=st.binary(max_size=200),
)
def test_any_legacy_files_import_without_raising_or_writing_outside(
    tmp_path_factory, index, voice, words, raw
):
    base = tmp_path_factory.mktemp("fuzz")
    data, outside = base / "data", base / "outside"
    outside.mkdir()
    (outside / "a.wav").write_bytes(b"RIFF")
    (data / "history").mkdir(parents=True)
    (data / "voices").mkdir()
    (data / "history" / "index.json").write_text(json.dumps(index))
    (data / "history" / "x.wav").write_bytes(b"RIFF")
    (data / "voices" / "v.json").write_text(json.dumps(voice))
    (data / "voices" / "raw.json").write_bytes(raw)
    (data / "pronunciations.json").write_text(json.dumps(words))
    before = _tree(outside)

    lib = Library(data / "library", legacy_dir=data)
    assert all(n.kind in ("skipped", "imported") for n in lib.notices)
    HistoryStore(lib).entries()
    VoiceLibrary(lib).list()
    PronunciationDictionary(lib).apply("hello SQL 重庆")
    assert _tree(outside) == before
    assert {p.name.split(".")[0] for p in data.iterdir()} <= {
        "history",
        "voices",
        "pronunciations",
        "library",
    }
    shutil.rmtree(base)


@FAST
@given(
    values=st.lists(
        st.one_of(
            st.none(),
            st.integers(-(2**70), 2**70),
            st.floats(),
            st.text(max_size=20),
            st.binary(max_size=20),
        ),
        min_size=8,
        max_size=8,
    )
)
def test_any_row_values_are_skipped_or_loaded(tmp_path_factory, values):
    lib = Library(tmp_path_factory.mktemp("rows"))
    with lib.transaction() as con:
        con.execute("INSERT INTO voices (name, speaker, seed, notes) VALUES ('ok', 'abc', 1, '')")
        try:
            con.execute(
                "INSERT INTO voices (name, speaker, seed, notes, created, reference, reference_text) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                tuple(values[:7]),
            )
        except Exception:
            pass  # NOT NULL / UNIQUE / int too large: SQLite itself refused the row
        try:
            con.execute(
                "INSERT INTO history (text, request, duration, created, device, synth_seconds, "
                "model_kind, speaker) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                tuple(values),
            )
        except Exception:
            pass
        try:
            con.execute("INSERT INTO lexicon (word, replacement) VALUES (?, ?)", tuple(values[:2]))
        except Exception:
            pass
    assert "ok" in [v.name for v in VoiceLibrary(lib).list()]
    HistoryStore(lib).entries()
    PronunciationDictionary(lib).apply("abc")
