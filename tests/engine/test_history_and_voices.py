import numpy as np

from app.engine.request import SamplingParams, SynthesisRequest, SynthesisResult
from app.engine.voice_library import Voice, VoiceLibrary
from app.history import MAX_ENTRIES, HistoryStore


def _result(n=2400):
    return SynthesisResult(audio=np.linspace(-0.5, 0.5, n, dtype=np.float32), sample_rate=24_000,
                           device="cpu", speaker="spk", seed=3, segments=1, synth_seconds=0.5,
                           test_model=True)


def test_history_round_trips_the_request_and_audio(tmp_path):
    store = HistoryStore(tmp_path)
    request = SynthesisRequest("你好", seed=3, speed=2, oral=4, refine_text=False,
                               sampling=SamplingParams(temperature=0.2, top_k=9))
    entry = store.add(request, _result())
    again = HistoryStore(tmp_path).get(entry.id)
    assert again.to_request() == request
    audio, rate = store.audio(again)
    assert rate == 24_000 and audio.shape == (2400,)
    assert abs(again.duration - 0.1) < 1e-6


def test_history_drops_entries_whose_wav_is_gone_and_prunes_old_ones(tmp_path, monkeypatch):
    import app.history as history

    monkeypatch.setattr(history, "MAX_ENTRIES", 3)
    store = HistoryStore(tmp_path)
    ids = [store.add(SynthesisRequest(f"t{i}"), _result(100)).id for i in range(5)]
    assert [e.id for e in store.entries()] == ids[::-1][:3]
    assert len(list(tmp_path.glob("*.wav"))) == 3
    store.wav_path(store.get(ids[-1])).unlink()
    assert [e.id for e in store.entries()] == [ids[3], ids[2]]
    store.delete(ids[3])
    assert [e.id for e in store.entries()] == [ids[2]]
    assert MAX_ENTRIES >= 100


def test_voice_library_one_file_per_voice(tmp_path):
    lib = VoiceLibrary(tmp_path)
    lib.save(Voice(name="旁白/narrator?", speaker="abc", seed=5))
    lib.save(Voice(name="Alice", speaker="def"))
    files = sorted(p.name for p in tmp_path.glob("*.json"))
    assert files == ["Alice.json", "旁白_narrator_.json"]
    lib.save(Voice(name="旁白/narrator*", speaker="ghi"))   # same file stem, different voice
    assert lib.get("旁白/narrator?").speaker == "abc"
    lib.delete("旁白/narrator*")
    assert [v.name for v in lib.list()] == ["Alice", "旁白/narrator?"]
    assert lib.get("旁白/narrator?").seed == 5
    (tmp_path / "broken.json").write_text("{")
    assert len(lib.list()) == 2
    lib.delete("Alice")
    assert [v.name for v in lib.list()] == ["旁白/narrator?"]
