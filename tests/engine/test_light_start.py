"""A start whose decode step is cached builds ChatTTS's other parts itself (engine/light):
the same audio as a start through ChatTTS, neither ChatTTS nor transformers imported (its
audio encoder too is built here), ChatTTS itself loaded only where that encoder cannot be, and
ChatTTS's loader whenever the light parts do not apply."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from app.engine.light.chat import LightChat
from app.engine.request import SynthesisRequest
from app.engine.synthesis.synthesizer import Synthesizer

ROOT = Path(__file__).resolve().parents[2]
TWO_SENTENCES = "今天天气很好。我们去公园散步吧。"


def _load(model, **kwargs):
    synth = Synthesizer(model, device="cpu", precision="int8", **kwargs)
    synth.load(verify=False)
    return synth


@pytest.fixture(scope="module")
def starts(tiny_model, tmp_path_factory):
    """(through ChatTTS, light) synthesizers of one model in int8, sharing a cache folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHATTTS_STUDIO_HOME", str(tmp_path_factory.mktemp("light-home")))
        return _load(tiny_model), _load(tiny_model)


def test_the_second_start_is_light_and_sounds_the_same(starts):
    full, light = starts
    assert not isinstance(full.chat, LightChat) and isinstance(light.chat, LightChat)
    assert light.decode_label == full.decode_label == "jit-int8"
    request = dict(text=TWO_SENTENCES, seed=5)
    # Two sentences with the voice lock: the second is voiced from the first one's codes,
    # which the audio encoder makes: ChatTTS's, and on the light start our own, without ChatTTS.
    expected = full.run(SynthesisRequest(**request)).audio
    got = light.run(SynthesisRequest(**request)).audio
    assert light.chat.audio_encoder() is not None and not light.chat.full_loaded
    assert expected.size > 0 and np.array_equal(got, expected)


def test_finish_loading_builds_the_audio_encoder_and_only_for_a_light_start(
    tiny_model, tmp_path, monkeypatch
):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    full = _load(tiny_model)
    full.finish_loading()  # nothing left out: nothing happens
    light = _load(tiny_model)
    assert light.chat._encoder is None
    light.finish_loading()
    encoder = light.chat.audio_encoder()
    light.finish_loading()
    assert (
        encoder is not None and light.chat.audio_encoder() is encoder and not light.chat.full_loaded
    )


def test_where_the_encoder_cannot_be_built_chattts_loads_once_for_it(
    tiny_model, tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    _load(tiny_model)
    light = _load(tiny_model)

    def unreadable(*args, **kwargs):
        raise KeyError("vq_layer.quantizer.rvqs.0.project_in.weight")

    monkeypatch.setattr("app.engine.light.chat.load_audio_encoder", unreadable)
    light.finish_loading()
    first = light.chat.full()
    light.finish_loading()
    assert light.chat.audio_encoder() is None and light.chat.full() is first
    assert first.vocos is None and first.gpt is None and first.dvae is not None  # no second copies
    assert "project_in.weight" in caplog.text
    wav = np.random.default_rng(1).standard_normal(24000).astype(np.float32)
    assert light.chat.sample_audio_speaker(wav) == first.sample_audio_speaker(wav)


def test_when_the_light_parts_fail_chattts_loads_them(tiny_model, tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    expected = _load(tiny_model).run(SynthesisRequest(text="你好。", seed=3)).audio

    def broken(*args, **kwargs):
        raise RuntimeError("a damaged table")

    monkeypatch.setattr("app.engine.light.chat.light_chat", broken)
    again = _load(tiny_model)
    assert not isinstance(again.chat, LightChat)
    assert again.compiled_cache.hits == 1  # the cached step is still used
    assert "a damaged table" in caplog.text
    assert np.array_equal(again.run(SynthesisRequest(text="你好。", seed=3)).audio, expected)


def test_an_uncached_start_goes_through_chattts(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    assert not isinstance(_load(tiny_model).chat, LightChat)
    fp32 = Synthesizer(tiny_model, device="cpu", precision="fp32")
    fp32.load(verify=False, warm_up=False)
    assert not isinstance(fp32.chat, LightChat)  # fp32 is never cached


_CHILD = textwrap.dedent("""
    import json, sys
    from app.engine.request import SynthesisRequest
    from app.engine.synthesis.synthesizer import Synthesizer
    synth = Synthesizer(sys.argv[1], device="cpu", precision="int8")
    synth.load(verify=False)
    audio = synth.run(SynthesisRequest(text="你好。", seed=3)).audio
    # Two sentences with the voice lock: the first one's recording voices the second.
    locked = synth.run(SynthesisRequest(text="你好。我们走吧。", seed=3)).audio
    print(json.dumps({"chat": type(synth.chat).__name__, "samples": [int(audio.size), int(locked.size)],
                      "imported": sorted(m for m in ("ChatTTS", "transformers", "vector_quantize_pytorch", "numba")
                                         if m in sys.modules)}))
""")


def test_a_warm_start_imports_neither_chattts_nor_transformers(tiny_model, tmp_path):
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))

    def child():
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(tiny_model)],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    cold, warm = child(), child()
    assert cold["chat"] == "Chat" and "ChatTTS" in cold["imported"]
    assert warm == {"chat": "LightChat", "samples": cold["samples"], "imported": []}


def test_a_load_that_reads_the_gpt_waits_for_one_that_does_not(tiny_model, monkeypatch):
    """ChatTTS loads under patched module globals: the window switching to fp32 while a light
    start's ChatTTS loads without GPT weights must still get the GPT's weights."""
    import threading

    import ChatTTS

    from app.engine.models.store import ModelStore
    from app.engine.synthesis.chattts_model import StopFlag, load_chat

    store = ModelStore(tiny_model)
    cfg = store.studio_config()
    real_load = ChatTTS.Chat._load
    patched_inside, may_go_on = threading.Event(), threading.Event()

    def slow_load(self, *args, **kwargs):
        if threading.current_thread().name == "weightless":
            patched_inside.set()
            may_go_on.wait(10)
        return real_load(self, *args, **kwargs)

    monkeypatch.setattr(ChatTTS.Chat, "_load", slow_load)
    weightless = threading.Thread(
        name="weightless",
        target=lambda: load_chat(
            store, "cpu", cfg, StopFlag(), gpt_weights=False, normalizer=False
        ),
    )
    weightless.start()
    assert patched_inside.wait(10)
    threading.Timer(0.5, may_go_on.set).start()
    chat = load_chat(store, "cpu", cfg, StopFlag(), normalizer=False)
    weightless.join(10)
    assert not getattr(chat.gpt.gpt, "weightless", False)
    assert sum(p.numel() for p in chat.gpt.gpt.parameters()) > 0
