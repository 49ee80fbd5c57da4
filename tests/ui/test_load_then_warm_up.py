"""Play is possible before the warm-up: the worker says the model is loaded first, then the
decode step's first runs happen on the engine's thread."""

import threading

from app.synthesis.synthesizer import Synthesizer
from app.workers.synthesis_worker import SynthesisWorker


def test_loaded_is_said_before_the_warm_up_which_runs_on_the_engine_thread(tiny_model):
    events = []
    warmed = threading.Event()

    class Recording(Synthesizer):
        def load(self, verify=True, warm_up=True):
            # On the engine's thread, which decodes with it too (engine.py: one OpenMP pool).
            events.append(("load", warm_up, threading.current_thread().name))
            super().load(verify=verify, warm_up=warm_up)

        def warm_up_parts(self):
            events.append(
                ("warm_up", threading.current_thread().name, self._warm_shapes is not None)
            )
            parts = super().warm_up_parts()

            def recorded(part, last):
                def run():
                    events.append(("part", threading.current_thread().name))
                    part()
                    if last:
                        warmed.set()

                return run

            return [recorded(part, i == len(parts) - 1) for i, part in enumerate(parts)]

    worker = SynthesisWorker(
        lambda root, device, precision="auto": Recording(root, device=device, precision="fp32")
    )
    worker.loaded.connect(lambda status: events.append(("loaded", status.decode)))
    worker.loadFailed.connect(lambda message: events.append(("failed", message)))
    try:
        worker.loadModel(str(tiny_model), "cpu", "fp32")
        assert warmed.wait(300)
        assert events[:3] == [
            ("load", False, "chattts-engine"),
            ("loaded", "jit-fp32"),
            ("warm_up", "chattts-engine", True),
        ]
        parts = events[3:]  # two first sentences, then graph captures (nothing on a CPU)
        assert len(parts) >= 2 and set(parts) == {("part", "chattts-engine")}
        synth = worker.synthesizer()
        assert synth.warmed.wait(60)
        assert synth._warm_shapes is None and synth.warm_up_parts() == []  # done once
    finally:
        worker.shutdown()


def test_a_play_pressed_during_the_warm_up_is_decoded_before_its_next_part(synthesizer):
    """The warm-up runs as separate engine calls: a request that arrives while one part runs
    has its first sentence decoded before the next part, instead of waiting for all of them."""
    from app.core.request import SamplingParams, SynthesisRequest
    from app.synthesis.engine import Engine
    from app.workers.synthesis_worker import _warm_up

    engine = Engine(synthesizer)
    first_running, play_in = threading.Event(), threading.Event()
    job = {}
    played_before_second = []

    def first():
        first_running.set()
        assert play_in.wait(60)

    def second():
        ticket = job["play"].ticket
        played_before_second.append(0 in ticket.finished or ticket.done)

    class Parts:
        warmed = threading.Event()
        warm_up = Synthesizer.warm_up  # the real one, over the parts below

        def warm_up_parts(self):
            return [first, second]

    warming = threading.Thread(target=_warm_up, args=(engine, Parts()))
    try:
        warming.start()
        assert first_running.wait(60)
        job["play"] = engine.submit(
            SynthesisRequest(
                "你好。", seed=3, refine_text=False, sampling=SamplingParams(max_new_tokens=16)
            )
        )
        play_in.set()
        items = list(job["play"])
        warming.join(60)
    finally:
        engine.close(60)
    assert items and played_before_second == [True] and Parts.warmed.is_set()
