"""Play is possible before the warm-up: the worker says the model is loaded first, then the
decode step's first runs happen on the engine's thread."""

import threading

from app.engine.synthesis.synthesizer import Synthesizer
from app.workers.synthesis_worker import SynthesisWorker


def test_loaded_is_said_before_the_warm_up_which_runs_on_the_engine_thread(tiny_model):
    events = []
    warmed = threading.Event()

    class Recording(Synthesizer):
        def load(self, verify=True, warm_up=True):
            events.append(("load", warm_up))
            super().load(verify=verify, warm_up=warm_up)

        def warm_up(self):
            events.append(("warm_up", threading.current_thread().name, self._warm_shapes is not None))
            super().warm_up()
            warmed.set()

    worker = SynthesisWorker(lambda root, device, precision="auto": Recording(root, device=device,
                                                                              precision="fp32"))
    worker.loaded.connect(lambda status: events.append(("loaded", status.decode)))
    worker.loadFailed.connect(lambda message: events.append(("failed", message)))
    try:
        worker.loadModel(str(tiny_model), "cpu", "fp32")
        assert warmed.wait(300)
        assert events == [("load", False), ("loaded", "jit-fp32"), ("warm_up", "chattts-engine", True)]
        synth = worker.synthesizer()
        assert synth._warm_shapes is None            # done once; a second call does nothing
    finally:
        worker.shutdown()
