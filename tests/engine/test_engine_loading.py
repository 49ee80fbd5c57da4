"""The model is loaded on the thread that decodes with it (`Engine.loading`): PyTorch keeps an
OpenMP pool per thread that used it, and a loader thread left alive beside the engine's made
decoding 1.7x slower on a 2-core CPU (engine.py, bench/engine_thread.py)."""

import threading

import pytest

from app.engine.errors import StudioError
from app.engine.request import SamplingParams, SynthesisRequest
from app.engine.synthesis.engine import Engine

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=16, min_new_tokens=16))


def test_the_engine_loads_on_the_thread_that_then_decodes_every_request(synthesizer, monkeypatch):
    seen = {}

    def make():
        seen["load"] = threading.current_thread()
        return synthesizer

    decoded_on = []
    logits = synthesizer.loop.logits
    monkeypatch.setattr(synthesizer.loop, "logits",
                        lambda *a, **k: decoded_on.append(threading.current_thread()) or logits(*a, **k))
    engine = Engine.loading(make, max_batch=3)
    try:
        assert engine.synthesizer is synthesizer and engine.scheduler.max_batch == 3
        assert seen["load"] is not threading.current_thread() and seen["load"].name == "chattts-engine"
        engine.submit(SynthesisRequest("今天天气很好。", **FAST)).result()
        assert decoded_on and set(decoded_on) == {seen["load"]}
        assert engine.call(threading.current_thread) is seen["load"]
    finally:
        engine.close(60)
    assert not seen["load"].is_alive()


def test_a_failed_load_is_raised_to_the_caller_and_leaves_no_thread(synthesizer):
    threads = []

    def make():
        threads.append(threading.current_thread())
        raise StudioError("The model folder is missing config/gpt.yaml.")

    with pytest.raises(StudioError, match="gpt.yaml"):
        Engine.loading(make)
    threads[0].join(10)
    assert not threads[0].is_alive()


def test_an_engine_closed_at_once_after_loading_ends_its_thread(synthesizer):
    engine = Engine.loading(lambda: synthesizer)
    thread = engine._thread
    engine.close(60)
    assert not thread.is_alive() and engine.closed
    with pytest.raises(StudioError):
        engine.submit(SynthesisRequest("你好。", **FAST))


@pytest.mark.parametrize("client", ["serve", "narrate"])
def test_the_commands_load_their_model_on_the_engines_thread(tiny_model, monkeypatch, client):
    """The speech server and `narrate` load through Engine.loading, so their decoding runs
    beside no other live OpenMP pool of theirs (the window's worker: tests/ui)."""
    from app.engine.synthesis.synthesizer import Synthesizer

    loaded_on = []
    load = Synthesizer.load
    monkeypatch.setattr(Synthesizer, "load",
                        lambda self, *a, **k: loaded_on.append(threading.current_thread()) or load(self, *a, **k))
    if client == "serve":
        from app.cli.parser import build_parser
        from app.cli.serve import _load
        from app.server.app import ServerState

        state = ServerState()
        _load(state, tiny_model, build_parser().parse_args(["serve", "--model", str(tiny_model), "--device", "cpu"]))
        engine = state.engine
    else:
        from app.cli.narrate_engine import InProcess

        engine = InProcess(tiny_model, "cpu", "auto").engine
    try:
        assert loaded_on == [engine._thread] and engine.call(threading.current_thread) is loaded_on[0]
    finally:
        engine.close(60)
