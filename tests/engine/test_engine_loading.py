"""The model is loaded on the thread that decodes with it (`Engine.loading`): PyTorch keeps an
OpenMP pool per thread that used it, and a loader thread left alive beside the engine's slows
decoding (engine.py; figures: docs/design/constants.md#load-on-the-engines-thread)."""

import threading
import time

import pytest

from app.core.errors import StudioError
from app.core.request import SamplingParams, SynthesisRequest
from app.synthesis.engine import Engine

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=16, min_new_tokens=16))


def test_the_engine_loads_on_the_thread_that_then_decodes_every_request(synthesizer, monkeypatch):
    seen = {}
    # The session's synthesizer is loaded already: its load only says where it ran.
    monkeypatch.setattr(
        synthesizer,
        "load",
        lambda **options: seen.update(load=threading.current_thread(), options=options),
    )
    decoded_on = []
    logits = synthesizer.loop.logits
    monkeypatch.setattr(
        synthesizer.loop,
        "logits",
        lambda *a, **k: decoded_on.append(threading.current_thread()) or logits(*a, **k),
    )
    engine = Engine.loading(synthesizer, max_batch=3, warm_up=False)
    try:
        assert engine.synthesizer is synthesizer and engine.scheduler.max_batch == 3
        assert seen["options"] == {"warm_up": False}
        assert (
            seen["load"] is not threading.current_thread() and seen["load"].name == "chattts-engine"
        )
        engine.submit(SynthesisRequest("今天天气很好。", **FAST)).result()
        assert decoded_on and set(decoded_on) == {seen["load"]}
        assert engine.call(threading.current_thread) is seen["load"]
    finally:
        engine.close(60)
    assert not seen["load"].is_alive()


def test_a_failed_load_is_raised_to_the_caller_and_leaves_no_thread(synthesizer, monkeypatch):
    threads = []

    def load(**_options):
        threads.append(threading.current_thread())
        raise StudioError("The model folder is missing config/gpt.yaml.")

    monkeypatch.setattr(synthesizer, "load", load)
    with pytest.raises(StudioError, match="gpt.yaml"):
        Engine.loading(synthesizer)
    threads[0].join(10)
    assert not threads[0].is_alive()


def test_an_engine_closed_at_once_after_loading_ends_its_thread(synthesizer, monkeypatch):
    monkeypatch.setattr(synthesizer, "load", lambda **_options: None)
    engine = Engine.loading(synthesizer)
    thread = engine._thread
    engine.close(60)
    assert not thread.is_alive() and engine.closed
    with pytest.raises(StudioError):
        engine.submit(SynthesisRequest("你好。", **FAST))


@pytest.mark.parametrize("client", ["serve", "narrate"])
def test_the_commands_load_their_model_on_the_engines_thread(tiny_model, monkeypatch, client):
    """The speech server and `narrate` load through Engine.loading, so their decoding runs
    beside no other live OpenMP pool of theirs (the window's worker: tests/ui)."""
    from app.synthesis.synthesizer import Synthesizer

    loaded_on = []
    load = Synthesizer.load
    monkeypatch.setattr(
        Synthesizer,
        "load",
        lambda self, *a, **k: loaded_on.append(threading.current_thread()) or load(self, *a, **k),
    )
    if client == "serve":
        from app.cli.parser import build_parser
        from app.cli.serve import _load
        from app.server.app import ServerState

        state = ServerState()
        _load(
            state,
            tiny_model,
            build_parser().parse_args(["serve", "--model", str(tiny_model), "--device", "cpu"]),
        )
        engine = state.engine
    else:
        from app.cli.narrate_engine import InProcess

        engine = InProcess(tiny_model, "cpu", "auto").engine
    try:
        assert (
            loaded_on == [engine._thread] and engine.call(threading.current_thread) is loaded_on[0]
        )
    finally:
        engine.close(60)


def test_a_caller_interrupted_while_loading_leaves_no_engine_serving(synthesizer, monkeypatch):
    """Ctrl+C while `narrate` waits for the load: the interrupt is raised at once, and the
    engine, once loaded, closes instead of serving a model nobody holds."""
    import queue

    release, threads = threading.Event(), []

    def load(**_options):
        threads.append(threading.current_thread())
        release.wait(30)

    monkeypatch.setattr(synthesizer, "load", load)

    get = queue.Queue.get

    def interrupted_get(self, *a, **k):
        if threading.current_thread() is threading.main_thread() and not release.is_set():
            release.set()
            raise KeyboardInterrupt
        return get(self, *a, **k)

    monkeypatch.setattr(queue.Queue, "get", interrupted_get)
    with pytest.raises(KeyboardInterrupt):
        Engine.loading(synthesizer)
    threads[0].join(30)
    assert not threads[0].is_alive()


def test_ray_actors_load_and_render_on_one_thread_of_their_own(synthesizer, monkeypatch):
    """A Ray actor serves several calls at once (the sentences in flight, a cancel beside them)
    on threads of Ray's: its model is loaded and used on one thread, its worker's engine's,
    whichever of them a call arrives on; a cancel does not wait its turn."""
    import app.synthesis
    from app.core.errors import SynthesisCancelled
    from app.narration.farm import ray_pool
    from app.narration.farm.worker import WorkerSpec

    seen = []
    # The session's synthesizer is loaded already: its load only says where it ran.
    monkeypatch.setattr(
        synthesizer, "load", lambda **options: seen.append(("load", threading.current_thread()))
    )
    monkeypatch.setattr(app.synthesis, "Synthesizer", lambda *a, **k: synthesizer)
    logits, speaker = synthesizer.loop.logits, synthesizer.speaker_for_seed
    monkeypatch.setattr(
        synthesizer.loop,
        "logits",
        lambda *a, **k: seen.append(("render", threading.current_thread())) or logits(*a, **k),
    )
    monkeypatch.setattr(
        synthesizer,
        "speaker_for_seed",
        lambda seed: seen.append(("speaker", threading.current_thread())) or speaker(seed),
    )
    body = ray_pool._ActorBody(spec=WorkerSpec("w", "unused", "cpu", "fp32"))
    try:
        replies = {}
        work = [("render", SynthesisRequest("今天天气很好。", seed=i, **FAST)) for i in range(3)]
        work.append(("speaker", 7))
        callers = [
            threading.Thread(
                target=lambda i=i: replies.__setitem__(i, body.handle(*work[i], i)), daemon=True
            )
            for i in range(len(work))
        ]
        for t in callers:
            t.start()
        for t in callers:
            t.join(60)
        assert [replies[i][0] for i in range(len(work))] == ["ok"] * len(work)
        model = {thread for _what, thread in seen}
        assert {what for what, _ in seen} == {"load", "render", "speaker"} and len(model) == 1
        assert model.isdisjoint({threading.main_thread(), *callers})

        long = SynthesisRequest(
            "今天天气很好。",
            refine_text=False,
            sampling=SamplingParams(max_new_tokens=2000, min_new_tokens=2000),
        )
        rendering = threading.Thread(
            target=lambda: replies.__setitem__("long", body.handle("render", long, 99)),
            daemon=True,
        )
        before = len(seen)
        rendering.start()
        while len(seen) < before + 5:  # it decodes now
            time.sleep(0.01)
        body.cancel(99)
        rendering.join(60)
        assert replies["long"][:2] == ("error", SynthesisCancelled.__name__)
    finally:
        if body.worker is not None:
            body.worker.close()
