"""The JSON files written by the previous version are imported once, then kept under a new name."""

import json

import numpy as np

from app import paths
from app.core import ModelKind
from app.core.request import SynthesisRequest, SynthesisResult
from app.library import HistoryStore, PronunciationDictionary, VoiceLibrary, default_library
from app.voices.speakers import encode_speaker
from tests.engine.library import legacy


def _result(n):
    return SynthesisResult(
        audio=np.full(n, 0.25, dtype=np.float32),
        sample_rate=24_000,
        device="cpu",
        speaker="spk",
        seed=1,
        segments=1,
        synth_seconds=0.2,
    )


def _write_with_todays_code(data):
    history = legacy.HistoryStore(data / "history")
    first = history.add(SynthesisRequest("first", seed=7), _result(240), test_model=True)
    second = history.add(SynthesisRequest("第二", speed=3), _result(480))
    voices = legacy.VoiceLibrary(data / "voices")
    speaker = encode_speaker(np.linspace(-1, 1, 32).astype(np.float16))
    voices.save(legacy.Voice(name="旁白", speaker=speaker, seed=5, notes="calm"))
    voices.save(legacy.Voice(name="Alice", speaker=speaker))
    words = legacy.PronunciationDictionary(data / "pronunciations.json")
    words.set("SQL", "sequel")
    words.set("重庆", "虫庆")
    words.save()
    return first, second, speaker


def test_todays_files_are_imported_once_and_renamed_never_deleted(isolated_user_dirs):
    data = paths.data_dir()
    first, second, speaker = _write_with_todays_code(data)
    library = default_library()

    entries = HistoryStore().entries()
    assert [e.text for e in entries] == ["第二", "first"]
    # The old flag becomes the model's kind.
    assert [e.model_kind for e in entries] == [ModelKind.OFFICIAL, ModelKind.RANDOM_WEIGHTS]
    assert entries[0].to_request() == SynthesisRequest("第二", speed=3)
    audio, rate = HistoryStore().audio(entries[1])
    assert rate == 24_000 and audio.shape == (240,)
    assert [(v.name, v.seed, v.notes) for v in VoiceLibrary().list()] == [
        ("Alice", None, ""),
        ("旁白", 5, "calm"),
    ]
    assert VoiceLibrary().get("旁白").speaker == speaker
    assert PronunciationDictionary().entries == {"SQL": "sequel", "重庆": "虫庆"}

    kept = sorted(p.name for p in data.iterdir())
    assert any(n.startswith("pronunciations.json.imported-") for n in kept)
    assert any(n.startswith("voices.imported-") for n in kept)
    assert not (data / "history" / "index.json").exists()
    assert list((data / "history").glob("index.json.imported-*"))
    assert {n.kind for n in library.notices} == {"imported"}

    # A second start (another process) imports nothing again.
    from app.library import Library

    again = Library(data / "library", legacy_dir=data)
    assert again.notices == [] and len(HistoryStore(again).entries()) == 2


def test_hostile_legacy_records_are_skipped_with_a_sentence_and_the_rest_imported(
    isolated_user_dirs, tmp_path
):
    data = paths.data_dir()
    _write_with_todays_code(data)
    outside = tmp_path / "somewhere" / "file.wav"
    outside.parent.mkdir()
    outside.write_bytes(b"not ours")
    index = data / "history" / "index.json"
    items = json.loads(index.read_text())
    items.append(dict(items[0], id="evil", wav="../../somewhere/file.wav"))
    items.append(dict(items[0], id="abs", wav=str(outside)))
    items.append(dict(items[0], id="typed", duration="long"))
    index.write_text(json.dumps(items))
    (data / "voices" / "forge.json").write_text(
        json.dumps({"name": "F", "speaker": "x", "notes": 123})
    )
    (data / "voices" / "broken.json").write_text("{")

    library = default_library()
    skipped = [n for n in library.notices if n.kind == "skipped"]
    fields = sorted(n.args[1] for n in skipped)
    assert fields == ["(the whole file)", "duration", "notes", "wav", "wav"]
    assert all(n.message.count(".") >= 1 and n.args[0] in n.message for n in skipped)
    assert [e.text for e in HistoryStore().entries()] == ["第二", "first"]
    assert [v.name for v in VoiceLibrary().list()] == ["Alice", "旁白"]
    assert outside.read_bytes() == b"not ours"
    renamed = next(data.glob("voices.imported-*"))
    assert (renamed / "broken.json").read_text() == "{"  # the user's bad file is kept


def test_a_truncated_legacy_file_is_kept_under_a_new_name_and_reported(isolated_user_dirs):
    data = paths.data_dir()
    data.mkdir(parents=True)
    (data / "pronunciations.json").write_text('{"SQL": "seq')
    library = default_library()
    assert [n.kind for n in library.notices] == ["skipped"]
    assert "pronunciations.json" in library.notices[0].message
    kept = list(data.glob("pronunciations.json.unreadable-*"))
    assert len(kept) == 1 and kept[0].read_text() == '{"SQL": "seq'
