"""Every jit/eager start runs on the model's runtime (model/runtime), built by our own code:
a first start reads the GPT's weights with our own loader, a later one takes its compiled step
from the cache and reads none of them; both give the same audio, neither imports ChatTTS nor
transformers (its audio encoder too is built here), and ChatTTS itself is loaded only for
`--decode upstream` and where that encoder cannot be built."""

import os
import textwrap

import numpy as np
import pytest

from app.core.errors import ModelCorruptError
from app.core.request import SynthesisRequest
from app.model.runtime.llama import Llama
from app.model.runtime.parts import ModelParts
from app.synthesis.synthesizer import Synthesizer
from tests.support.child_json import ROOT, run_child

TWO_SENTENCES = "今天天气很好。我们去公园散步吧。"


def _load(model, **kwargs):
    synth = Synthesizer(model, device="cpu", precision="int8", **kwargs)
    synth.load(verify=False)
    return synth


@pytest.fixture(scope="module")
def starts(tiny_model, tmp_path_factory):
    """(first, cached) synthesizers of one model in int8, sharing a cache folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHATTTS_STUDIO_HOME", str(tmp_path_factory.mktemp("runtime-home")))
        return _load(tiny_model), _load(tiny_model)


def test_the_cached_start_sounds_as_the_first_start(starts):
    first, cached = starts
    assert isinstance(first.parts, ModelParts) and isinstance(cached.parts, ModelParts)
    assert first.chat is None and cached.chat is None
    assert (first.compiled_cache.hits, cached.compiled_cache.hits) == (0, 1)
    assert cached.decode_label == first.decode_label == "jit-int8"
    request = dict(text=TWO_SENTENCES, seed=5)
    # Two sentences with the voice lock: the second is voiced from the first one's codes,
    # which our own audio encoder makes, without ChatTTS.
    expected = first.run(SynthesisRequest(**request)).audio
    got = cached.run(SynthesisRequest(**request)).audio
    for synth in starts:
        recordings = synth.parts.recordings
        assert recordings.audio_encoder() is not None and not recordings.full_loaded
    assert expected.size > 0 and np.array_equal(got, expected)


def test_a_first_start_reads_the_gpt_with_our_loader_and_a_cached_one_does_not(
    tiny_model, tmp_path, monkeypatch
):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    read = []
    from app.model.runtime import parts as parts_module

    real = parts_module.load_llama
    monkeypatch.setattr(parts_module, "load_llama", lambda *a, **k: read.append(a) or real(*a, **k))
    fp32 = Synthesizer(tiny_model, device="cpu", precision="fp32")
    fp32.load(verify=False, warm_up=False)
    assert isinstance(fp32.parts.llama, Llama) and len(read) == 1  # fp32 is never cached
    _load(tiny_model, step_cache=True)
    assert len(read) == 2  # int8's first start converts the weights it read (then drops them)
    cached = Synthesizer(tiny_model, device="cpu", precision="int8")
    cached.load(verify=False, warm_up=False)
    assert len(read) == 2 and cached.compiled_cache.hits == 1
    assert cached.parts.llama is None  # the loop holds the step; the shell is dropped too


def test_finish_loading_builds_the_audio_encoder(tiny_model, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    synth = _load(tiny_model)
    assert synth.parts.recordings._encoder is None
    synth.finish_loading()
    encoder = synth.parts.recordings.audio_encoder()
    synth.finish_loading()
    recordings = synth.parts.recordings
    assert encoder is not None and recordings.audio_encoder() is encoder
    assert not recordings.full_loaded


def test_where_the_encoder_cannot_be_built_chattts_loads_once_for_it(
    tiny_model, tmp_path, monkeypatch, caplog
):
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    _load(tiny_model)
    cached = _load(tiny_model)

    def unreadable(*args, **kwargs):
        raise KeyError("vq_layer.quantizer.rvqs.0.project_in.weight")

    monkeypatch.setattr("app.model.runtime.parts.load_audio_encoder", unreadable)
    cached.finish_loading()
    recordings = cached.parts.recordings
    first = recordings.full()
    cached.finish_loading()
    assert recordings.audio_encoder() is None and recordings.full() is first
    assert first.vocos is None and first.gpt is None and first.dvae is not None  # no second copies
    assert "project_in.weight" in caplog.text
    wav = np.random.default_rng(1).standard_normal(24000).astype(np.float32)
    assert cached.parts.sample_audio_speaker(wav) == first.sample_audio_speaker(wav)


def test_parts_that_do_not_load_are_the_users_sentence(model_copy, tmp_path, monkeypatch):
    """No ChatTTS to fall back on: a damaged part is reported as ChatTTS's loader reported it."""
    monkeypatch.setenv("CHATTTS_STUDIO_HOME", str(tmp_path / "home"))
    (model_copy / "asset" / "Embed.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(ModelCorruptError, match="could not be loaded") as failure:
        Synthesizer(model_copy, device="cpu", precision="int8").load(verify=False, warm_up=False)
    assert "Download them again" in str(failure.value)


_CHILD = textwrap.dedent("""
    import json, sys
    from app.core.request import SynthesisRequest
    from app.synthesis.synthesizer import Synthesizer
    synth = Synthesizer(sys.argv[1], device="cpu", precision="int8", decode=sys.argv[2])
    synth.load(verify=False)
    # What decoding never uses (vocos imports huggingface_hub; the voice lock needs torchaudio,
    # but only once it encodes a recording).
    at_ready = sorted(m for m in ("vocos", "torchaudio", "huggingface_hub", "httpx", "encodec", "scipy")
                      if m in sys.modules)
    audio = synth.run(SynthesisRequest(text="你好。", seed=3)).audio
    # Two sentences with the voice lock: the first one's recording voices the second.
    locked = synth.run(SynthesisRequest(text="你好。我们走吧。", seed=3)).audio
    print(json.dumps({"parts": type(synth.parts).__name__,
                      "hits": synth.compiled_cache.hits if synth.compiled_cache else None,
                      "samples": [int(audio.size), int(locked.size)],
                      "at_ready": at_ready,
                      "imported": sorted(m for m in ("ChatTTS", "transformers", "vector_quantize_pytorch", "numba",
                                                     "vocos", "huggingface_hub")
                                         if m in sys.modules)}))
""")


def test_no_start_imports_chattts_transformers_or_vocos_but_upstream_does(tiny_model, tmp_path):
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))

    def child(decode="jit"):
        return run_child(_CHILD, str(tiny_model), decode, env=env)

    first, cached = child(), child()
    assert first == {
        "parts": "ModelParts",
        "hits": 0,
        "samples": first["samples"],
        "at_ready": [],
        "imported": [],
    }
    assert cached == first | {"hits": 1}
    upstream = child("upstream")
    assert upstream["parts"] == "NoneType" and "ChatTTS" in upstream["imported"]
    assert all(n > 0 for n in upstream["samples"])


def test_a_load_that_reads_the_gpt_waits_for_one_that_does_not(tiny_model, monkeypatch):
    """ChatTTS loads under patched module globals: the window switching to fp32 while a light
    start's ChatTTS loads without GPT weights must still get the GPT's weights."""
    import threading

    import ChatTTS

    from app.model.store import ModelStore
    from app.synthesis.chattts_model import StopFlag, load_chat

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
