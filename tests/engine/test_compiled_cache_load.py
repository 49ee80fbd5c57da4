"""The compiled step's cache on the load path: the second load of a model in int8 uses the
step the first one saved and decodes the very same tokens; a damaged entry is rebuilt; a
changed model file is another entry; fp32 (which shares the model's weights) is not cached."""

import os

import pytest

from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.synthesis.synthesizer import Synthesizer


def _load(model, precision="int8"):
    synth = Synthesizer(model, device="cpu", precision=precision)
    synth.load(verify=False, warm_up=False)
    return synth


def _tokens(synth):
    """Audio codes of one sentence, sampled (not greedy: more of the numbers must agree)."""
    chat = synth.parts
    emb, mask = code_prompt(
        chat, ["今天天气很好。"], "[speed_5]", synth.speaker_for_seed(7), None, None
    )
    eos = int(chat.config.gpt.num_audio_tokens) - 1
    *_, last = synth.loop.generate(
        emb, mask, True, PassParams(0.3, 0.7, 20, 1.05, 24), [3], eos=eos
    )
    return [t.tolist() for t in last.tokens]


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory):
    return str(tmp_path_factory.mktemp("cache-home"))


@pytest.fixture(scope="module")
def int8_runs(tiny_model, shared_home):
    """(fresh, cached) synthesizers of the same model in int8, with one cache folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHATTTS_STUDIO_HOME", shared_home)
        fresh = _load(tiny_model)
        cached = _load(tiny_model)
    return fresh, cached


def test_the_second_load_uses_the_cached_step_and_decodes_the_same(int8_runs):
    fresh, cached = int8_runs
    assert fresh.compiled_cache.hits == 0 and fresh.compiled_cache.misses == 1
    assert cached.compiled_cache.hits == 1
    assert cached.decode_label == fresh.decode_label == "jit-int8"
    assert _tokens(cached) == _tokens(fresh)


def test_a_cached_start_never_reads_the_fp32_gpt(model_copy, tmp_path, monkeypatch):
    """The cached int8 step brings its own weights: with the GPT's weight file zeroed (same size
    and time, so the same cache key) the second load still decodes the first one's tokens. A load
    that read those weights would decode others, or fail."""
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    fresh = _load(model_copy)
    expected = _tokens(fresh)
    gpt = model_copy / "asset" / "gpt" / "model.safetensors"
    stat = gpt.stat()
    gpt.write_bytes(bytes(stat.st_size))
    os.utime(gpt, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    cached = _load(model_copy)
    assert cached.compiled_cache.hits == 1
    assert _tokens(cached) == expected


def test_without_a_cache_entry_the_gpt_weights_are_read(model_copy, tmp_path, monkeypatch):
    """The other side: a cold int8 load converts the fp32 weights it reads, so a zeroed file
    shows (it cannot load, or decodes other tokens)."""
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    expected = _tokens(_load(model_copy))
    gpt = model_copy / "asset" / "gpt" / "model.safetensors"
    gpt.write_bytes(bytes(gpt.stat().st_size))
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "other-home"))
    try:
        tokens = _tokens(_load(model_copy))
    except Exception:
        return
    assert tokens != expected


def test_a_damaged_entry_is_rebuilt_on_load(int8_runs, tiny_model, shared_home, monkeypatch):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", shared_home)
    folder = int8_runs[0].compiled_cache.folder
    (step,) = folder.glob("step-*.pt")
    data = step.read_bytes()
    step.write_bytes(data[: len(data) // 2])
    again = _load(tiny_model)
    assert again.compiled_cache.hits == 0 and again.compiled_cache.misses == 1
    assert _tokens(again) == _tokens(int8_runs[0])
    assert again.compiled_cache.folder == folder
    assert step.stat().st_size == len(data)  # written whole again


def test_a_changed_model_file_is_another_entry(model_copy):
    first = _load(model_copy)
    assert first.compiled_cache.misses == 1
    gpt = model_copy / "asset" / "gpt" / "model.safetensors"
    os.utime(gpt, ns=(gpt.stat().st_atime_ns, gpt.stat().st_mtime_ns + 10**9))
    second = _load(model_copy)
    assert second.compiled_cache.hits == 0 and second.compiled_cache.misses == 1


def test_fp32_is_not_cached(model_copy):
    synth = _load(model_copy, "fp32")
    assert synth.compiled_cache.hits == synth.compiled_cache.misses == 0
    assert not list(synth.compiled_cache.folder.glob("step-*"))


def test_an_entry_that_looks_whole_but_fails_its_checksum_is_replaced_by_reading_the_gpt(
    model_copy, tmp_path, monkeypatch
):
    """The step is read on another thread while ChatTTS loads without its GPT weights, because
    the entry looks whole (sizes as its manifest says). When its checksum then fails, the GPT's
    weights are read after all: the same tokens, and the entry is written again."""
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    expected = _tokens(_load(model_copy))
    (weights,) = (tmp_path / "home").rglob("step-*.weights")
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0xFF
    weights.write_bytes(bytes(data))
    again = _load(model_copy)
    assert again.compiled_cache.hits == 0 and again.compiled_cache.misses == 1
    assert _tokens(again) == expected
    assert weights.read_bytes() != bytes(data)  # written whole again
    assert _load(model_copy).compiled_cache.hits == 1
