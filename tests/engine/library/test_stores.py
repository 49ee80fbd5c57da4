"""History, voices and pronunciations in the library database."""

import os

import numpy as np
import pytest

from app.core import ModelKind
from app.core.errors import OutputError, VoiceError
from app.core.request import SamplingParams, SynthesisRequest, SynthesisResult
from app.library import HistoryStore, Library, PronunciationDictionary, Voice, VoiceLibrary
from app.library import history as history_module

RANDOM = ModelKind.RANDOM_WEIGHTS


def result(n=2400):
    return SynthesisResult(
        audio=np.linspace(-0.5, 0.5, n, dtype=np.float32),
        sample_rate=24_000,
        device="cpu",
        speaker="spk",
        seed=3,
        segments=1,
        synth_seconds=0.5,
    )


def test_history_round_trips_the_request_and_audio(tmp_path):
    store = HistoryStore(tmp_path)
    request = SynthesisRequest(
        "你好",
        seed=3,
        speed=2,
        oral=4,
        refine_text=False,
        sampling=SamplingParams(temperature=0.2, top_k=9),
    )
    entry = store.add(request, result(), RANDOM)
    again = HistoryStore(Library(tmp_path)).get(entry.id)
    assert again.to_request() == request
    audio, rate = store.audio(again)
    assert rate == 24_000 and audio.shape == (2400,)
    assert abs(again.duration - 0.1) < 1e-6
    assert store.wav_path(again) == tmp_path / "audio" / f"{int(entry.id)}.wav"


def test_history_prunes_old_results_and_skips_rows_whose_wav_is_gone(tmp_path, monkeypatch):
    monkeypatch.setattr(history_module, "MAX_ENTRIES", 3)
    store = HistoryStore(tmp_path)
    ids = [store.add(SynthesisRequest(f"t{i}"), result(100), RANDOM).id for i in range(5)]
    assert [e.id for e in store.entries()] == ids[::-1][:3]
    assert sorted(p.name for p in (tmp_path / "audio").glob("*.wav")) == sorted(
        f"{i}.wav" for i in ids[2:]
    )
    store.wav_path(store.get(ids[-1])).unlink()
    assert [e.id for e in store.entries()] == [ids[3], ids[2]]
    store.delete(ids[3])
    assert [e.id for e in store.entries()] == [ids[2]]
    assert history_module.MAX_ENTRIES == 3 and store.get("../../etc/passwd") is None


def test_deleting_history_touches_only_files_named_from_row_ids(tmp_path):
    store = HistoryStore(tmp_path / "lib")
    audio = tmp_path / "lib" / "audio"
    entry = store.add(SynthesisRequest("hi"), result(100), RANDOM)
    # A decoy wherever an id used as a file name would land: beside the audio, one and two
    # folders up, and at an absolute path (the ".wav" a file name gets is already on each).
    decoys = [
        audio / "precious.wav",
        audio / "7 .wav",
        tmp_path / "lib" / "precious.wav",
        tmp_path / "precious.wav",
        tmp_path / "elsewhere" / "precious.wav",
    ]
    for decoy in decoys:
        decoy.parent.mkdir(exist_ok=True)
        decoy.write_bytes(b"user data")
    assert (
        audio / "../../precious.wav"
    ).resolve() == tmp_path / "precious.wav"  # the ids below reach them
    # Whatever text a row holds, the file is found from its integer id alone.
    with store.library.transaction() as con:
        con.execute(
            "UPDATE history SET text = ?, speaker = ? WHERE id = ?",
            ("../../precious.wav", str(decoys[-1]), int(entry.id)),
        )
    for hostile in (
        "precious",
        "7 ",
        "../precious",
        "../../precious",
        str(decoys[-1].with_suffix("")),
        f"{entry.id}/../../precious",
        7.5,
        None,
        True,
        2**70,
        -1,
    ):
        store.delete(hostile)
        assert store.get(hostile) is None
    assert [decoy for decoy in decoys if not decoy.exists()] == []
    assert store.get(entry.id) is not None  # nor the row (True is 1 to SQLite)
    store.delete(entry.id)
    assert store.get(entry.id) is None
    assert sorted(p.name for p in audio.iterdir()) == ["7 .wav", "precious.wav"]


def test_a_row_with_wrong_types_is_skipped_and_the_rest_kept(tmp_path):
    store = HistoryStore(tmp_path)
    good = store.add(SynthesisRequest("good"), result(100), RANDOM)
    bad = store.add(SynthesisRequest("bad"), result(100), RANDOM)
    with store.library.transaction() as con:
        con.execute(
            "UPDATE history SET duration = 'long', request = '[' WHERE id = ?", (int(bad.id),)
        )
    assert [e.id for e in store.entries()] == [good.id]
    assert store.get(bad.id) is None


def test_a_failed_wav_write_keeps_no_row_and_says_so(tmp_path, monkeypatch):
    store = HistoryStore(tmp_path)

    def full_disk(*_a, **_k):
        raise OutputError("The disk is full, so the result could not be written; free some space.")

    monkeypatch.setattr(history_module, "write_wav", full_disk)
    with pytest.raises(OutputError, match="disk is full"):
        store.add(SynthesisRequest("lost?"), result(100), RANDOM)
    assert store.library.rows("SELECT COUNT(*) FROM history") == [(0,)]


def test_voices_are_rows_unique_by_name(tmp_path):
    lib = VoiceLibrary(tmp_path)
    lib.save(Voice(name="旁白/narrator?", speaker="abc", seed=5))
    lib.save(Voice(name="Alice", speaker="def"))
    lib.save(Voice(name="旁白/narrator*", speaker="ghi"))
    lib.save(Voice(name="Alice", speaker="xyz", notes="again"))
    assert [v.name for v in lib.list()] == ["Alice", "旁白/narrator*", "旁白/narrator?"]
    assert lib.get("Alice").speaker == "xyz" and lib.get("旁白/narrator?").seed == 5
    lib.delete("旁白/narrator*")
    assert [v.name for v in VoiceLibrary(tmp_path).list()] == ["Alice", "旁白/narrator?"]
    with pytest.raises(VoiceError, match="name"):
        lib.save(Voice(name="  ", speaker="abc"))
    with pytest.raises(VoiceError, match="'seed'"):
        lib.save(Voice(name="Bob", speaker="abc", seed=-1))


def test_a_damaged_voice_row_is_skipped(tmp_path):
    lib = VoiceLibrary(tmp_path)
    lib.save(Voice(name="Alice", speaker="abc"))
    lib.save(Voice(name="Bob", speaker="def"))
    with lib.library.transaction() as con:
        con.execute("UPDATE voices SET notes = X'0102' WHERE name = 'Bob'")
    assert [v.name for v in lib.list()] == ["Alice"]


def test_pronunciations_save_only_what_changed(tmp_path):
    one = PronunciationDictionary(tmp_path)
    two = PronunciationDictionary(tmp_path)
    one.set("SQL", "sequel")
    one.save()
    two.set("重庆", "虫庆")
    two.save()  # does not drop the word the other copy added
    assert PronunciationDictionary(tmp_path).entries == {"SQL": "sequel", "重庆": "虫庆"}
    one.remove("SQL")
    one.save()
    assert PronunciationDictionary(tmp_path).entries == {"重庆": "虫庆"}
    assert PronunciationDictionary(tmp_path).apply("重庆 sql") == "虫庆 sql"


def test_the_database_uses_wal_and_a_schema_version(tmp_path):
    lib = Library(tmp_path)
    assert lib.rows("PRAGMA journal_mode") == [("wal",)]
    assert lib.rows("PRAGMA user_version") == [(4,)]
    assert os.path.isfile(tmp_path / "library.sqlite3")
