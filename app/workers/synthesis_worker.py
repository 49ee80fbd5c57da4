"""The one long-lived synthesis worker: owns the loaded model, runs requests in order.

It lives on its own QThread. Requests arrive through queued signals; `cancel()` is called
directly from the GUI thread (it only sets flags), so it is not stuck behind the request it
is meant to stop. Signals carry plain data: AudioChunk, SynthesisResult, str.
"""

from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from app.engine.errors import StudioError, SynthesisCancelled
from app.engine.request import AudioChunk, SynthesisRequest
from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")

@dataclass
class ModelStatus:
    root: str
    device: str
    device_reason: str
    kind: str
    test_model: bool
    load_seconds: float
    decode: str = ""          # e.g. "jit-int8"
    notes: tuple[str, ...] = ()   # how the model runs, when it is not what was asked for
    precision: str = ""           # what the decode step computes in ("" for ChatTTS's own path)
    precision_asked: str = ""


@dataclass
class Job:
    id: int
    request: SynthesisRequest


class SynthesisWorker(QObject):
    loadStarted = Signal(str)
    loaded = Signal(object)            # ModelStatus
    loadFailed = Signal(str)           # the user-facing sentence
    started = Signal(int)              # job id
    chunkReady = Signal(int, object)   # job id, AudioChunk
    progress = Signal(int, int, int)   # job id, segments done, segments total
    finished = Signal(int, object)     # job id, SynthesisResult
    failed = Signal(int, str)          # job id, sentence
    cancelled = Signal(int)            # job id
    referenceReady = Signal(str, str, str)   # audio codes, transcript, source file
    referenceFailed = Signal(str)

    def __init__(self, synthesizer_factory=None):
        super().__init__()
        if synthesizer_factory is None:
            from app.engine.synthesizer import Synthesizer as synthesizer_factory
        self._factory = synthesizer_factory
        self._synth = None
        self._lock = threading.Lock()
        self._cancelled_upto = 0

    # -- called from the GUI thread -------------------------------------------------
    def cancel(self, job_id: int) -> None:
        """Cancel job `job_id` and every earlier one, running or still queued."""
        with self._lock:
            self._cancelled_upto = max(self._cancelled_upto, job_id)
            synth = self._synth
        if synth is not None:
            synth.cancel()

    def synthesizer(self):
        """The loaded synthesizer (None before loading); its prepare() is safe from any thread."""
        with self._lock:
            return self._synth

    # -- run on the worker thread ----------------------------------------------------
    @Slot(str, str)
    def makeReference(self, path: str, transcript: str) -> None:
        synth = self.synthesizer()
        if synth is None:
            self.referenceFailed.emit("Load a model first: the voice is made by the model.")
            return
        try:
            codes, text = synth.voice_from_recording(path, transcript)
        except StudioError as exc:
            self.referenceFailed.emit(str(exc))
            return
        except Exception as exc:
            log.exception("reference voice failed")
            self.referenceFailed.emit(f"The recording could not be used: {type(exc).__name__}: {exc}")
            return
        self.referenceReady.emit(codes, text, path)

    @Slot(str, str, str)
    def loadModel(self, model_dir: str, device: str, precision: str = "auto") -> None:
        self.loadStarted.emit(model_dir)
        try:
            synth = self._factory(model_dir, device=device, precision=precision)
            synth.load()
        except StudioError as exc:
            self.loadFailed.emit(str(exc))
            return
        except Exception as exc:  # a bug, but the window must say something useful
            log.exception("model load crashed")
            self.loadFailed.emit(f"The model could not be loaded: {type(exc).__name__}: {exc}")
            return
        with self._lock:
            self._synth = synth
        self.loaded.emit(ModelStatus(
            root=str(synth.store.root), device=synth.device.device, device_reason=synth.device.reason,
            kind=synth.store.kind, test_model=synth.test_model, load_seconds=synth.load_seconds or 0.0,
            decode=synth.decode_label, notes=tuple(synth.notes), precision=synth.precision,
            precision_asked=precision,
        ))

    @Slot(object)
    def run(self, job: Job) -> None:
        with self._lock:
            synth = self._synth
            skip = job.id <= self._cancelled_upto
        if skip:
            self.cancelled.emit(job.id)
            return
        if synth is None:
            self.failed.emit(job.id, "No model is loaded yet; choose a model folder first.")
            return
        self.started.emit(job.id)
        try:
            for item in synth.synthesize(job.request):
                with self._lock:
                    stop = job.id <= self._cancelled_upto
                if stop:
                    synth.cancel()
                    raise SynthesisCancelled("stopped")
                if isinstance(item, AudioChunk):
                    self.chunkReady.emit(job.id, item)
                    self.progress.emit(job.id, item.index + int(item.final), item.total)
                else:
                    self.finished.emit(job.id, item)
        except SynthesisCancelled:
            self.cancelled.emit(job.id)
        except StudioError as exc:
            self.failed.emit(job.id, str(exc))
        except Exception as exc:
            log.error("synthesis crashed:\n%s", traceback.format_exc())
            self.failed.emit(job.id, f"Synthesis failed unexpectedly ({type(exc).__name__}: {exc}); "
                                     "the details are in the log file.")


class WorkerThread(OwnedThread):
    """The synthesis worker on its thread; `shutdown()` cancels, stops and waits."""

    submit = Signal(object)         # Job -> worker.run (queued)
    requestLoad = Signal(str, str, str)  # model folder, device, precision -> worker.loadModel (queued)
    requestReference = Signal(str, str)  # -> worker.makeReference (queued)

    def __init__(self, synthesizer_factory=None, parent=None):
        super().__init__(SynthesisWorker(synthesizer_factory), "synthesis-worker", parent)
        self.submit.connect(self.worker.run)
        self.requestLoad.connect(self.worker.loadModel)
        self.requestReference.connect(self.worker.makeReference)
        self._next_id = 0

    def new_job(self, request: SynthesisRequest) -> Job:
        self._next_id += 1
        return Job(self._next_id, request)

    def stop_work(self) -> None:
        self.worker.cancel(self._next_id)
