"""The window starts over each damaged library file, says so, and keeps the user's other data."""

import json

import numpy as np
import pytest

from app import paths
from app.core import ModelKind
from app.core.request import SynthesisRequest, SynthesisResult
from app.library import HistoryStore, Library, PronunciationDictionary, Voice, VoiceLibrary
from app.voices.speakers import encode_speaker

SPEAKER = encode_speaker(np.linspace(-1, 1, 32).astype(np.float16))


def _good_voice_file(folder, name):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps({"name": name, "speaker": SPEAKER}))


def _legacy_voice_with_number_notes(data):
    _good_voice_file(data / "voices", "Alice")
    (data / "voices" / "forge.json").write_text(
        json.dumps({"name": "F", "speaker": SPEAKER, "notes": 123})
    )
    return "forge.json"


def _legacy_truncated_index(data):
    _good_voice_file(data / "voices", "Alice")
    (data / "history").mkdir(parents=True)
    (data / "history" / "index.json").write_text('[{"id": "1", "text": "hel')
    return "index.json"


def _legacy_truncated_lexicon(data):
    _good_voice_file(data / "voices", "Alice")
    (data / "pronunciations.json").write_text('{"SQL": ')
    return "pronunciations.json"


def _damaged_database(data):
    lib = Library(data / "library")
    VoiceLibrary(lib).save(Voice(name="Alice", speaker=SPEAKER))
    Library(data / "library")  # a start that backs it up
    lib.rows("PRAGMA wal_checkpoint(TRUNCATE)")
    raw = bytearray(lib.path.read_bytes())
    raw[100:4096] = b"\x00\xff" * ((4096 - 100) // 2)
    lib.path.write_bytes(bytes(raw))
    return "library.sqlite3.damaged-"


def _emptied_database(data):
    _damaged_database(data)
    (data / "library" / "library.sqlite3").write_bytes(b"")
    return "library.sqlite3.damaged-"


def _missing_database(data):
    _damaged_database(data)
    (data / "library" / "library.sqlite3").unlink()
    return "library.sqlite3"


# The window words each notice by its kind (and a whole file by WHOLE_FILE), in its own
# Qt-translated sentence rather than the command line's.
@pytest.mark.parametrize(
    "damage, worded",
    [
        (
            _legacy_voice_with_number_notes,
            "a record was skipped because its field \u201cnotes\u201d is not valid",
        ),
        (
            _legacy_truncated_index,
            "could not be read; it was kept as it is and the rest was loaded.",
        ),
        (
            _legacy_truncated_lexicon,
            "could not be read; it was kept as it is and the rest was loaded.",
        ),
        (_damaged_database, "and the backup"),
        (_emptied_database, "Your library was empty although its backups hold your data"),
        (_missing_database, "was missing: the backup"),
    ],
)
def test_the_window_starts_over_a_damaged_file_and_says_so(make_window, damage, worded):
    data = paths.data_dir()
    named = damage(data)
    window = make_window(start=False)
    assert window.isVisible()
    assert named in window.library_banner.text()
    assert worded in window.library_banner.text()
    assert [v.name for v in window.voice_panel.library.list()] == ["Alice"]


def test_a_history_row_with_wrong_types_does_not_stop_the_window(make_window):
    store = HistoryStore()
    audio = np.zeros(240, dtype=np.float32)
    good = store.add(
        SynthesisRequest("kept"),
        SynthesisResult(audio, 24000, "cpu", "", 1, 1, 0.1),
        ModelKind.RANDOM_WEIGHTS,
    )
    bad = store.add(
        SynthesisRequest("bad"),
        SynthesisResult(audio, 24000, "cpu", "", 1, 1, 0.1),
        ModelKind.RANDOM_WEIGHTS,
    )
    with store.library.transaction() as con:
        con.execute(
            'UPDATE history SET request = \'{"sampling": 5, "speed": "fast"}\', '
            "duration = 'x' WHERE id = ?",
            (int(bad.id),),
        )
    window = make_window(start=False)
    assert window.history_panel.list.count() == 1
    assert window.history.entries()[0].id == good.id


def test_a_history_that_cannot_be_written_is_said_in_the_window(make_window, monkeypatch):
    from app.core.errors import OutputError
    from app.library import history as history_module

    window = make_window(start=False)

    def refuse(*_a, **_k):
        raise OutputError("The history folder cannot be written: permission denied.")

    monkeypatch.setattr(history_module, "write_wav", refuse)
    window.speech.finished.emit(
        SynthesisRequest("hi"),
        SynthesisResult(np.zeros(240, dtype=np.float32), 24000, "cpu", "", 1, 1, 0.1),
        False,
    )
    assert "permission denied" in window.library_banner.text()
    assert "history" in window.library_banner.text()
    assert PronunciationDictionary().entries == {}


def test_regenerating_a_row_with_out_of_range_settings_says_which(make_window):
    store = HistoryStore()
    audio = np.zeros(240, dtype=np.float32)
    entry = store.add(
        SynthesisRequest("again"),
        SynthesisResult(audio, 24000, "cpu", "", 1, 1, 0.1),
        ModelKind.RANDOM_WEIGHTS,
    )
    with store.library.transaction() as con:
        con.execute(
            "UPDATE history SET request = ? WHERE id = ?",
            (json.dumps({"text": "again", "sampling": {"top_p": 5}}), int(entry.id)),
        )
    window = make_window(start=False)
    window.regenerate(entry.id)
    assert window.status.text() == (
        "top-p must be greater than 0 and at most 1; change it in the Parameters tab."
    )
    assert not window.is_busy()


def test_saved_parameters_of_the_wrong_kind_do_not_stop_the_window(make_window, settings):
    settings.params = {
        "speed": "fast",
        "temperature": [1],
        "top_k": 10**30,
        "top_p": float("nan"),
        "oral": None,
        "refine_text": False,
    }
    window = make_window(start=False)
    values = window.params_panel.values()
    assert values["speed"] == 5 and values["top_k"] == 100 and values["oral"] is None
