"""The window's adapter to the engine: loads the model, hands requests to the engine's
scheduler and turns what comes back into Qt signals.

It lives on its own QThread (a load takes seconds and must not freeze the window); requests
arrive through queued signals. The model itself belongs to the engine's thread
(app/synthesis/engine.py), which other clients can share through `engine()`.
`cancel()` is called directly from the GUI thread: it only sets flags, so it is not stuck
behind the request it is meant to stop. Signals carry plain data: AudioChunk,
SynthesisResult, str.
"""

from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from app.core import AudioChunk, ModelKind, StudioError, SynthesisCancelled, SynthesisRequest
from app.i18n import _
from app.synthesis import Engine, Priority
from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")


@dataclass
class ModelStatus:
    root: str
    device: str
    device_reason: str
    kind: str  # in words for the status line, e.g. "random-weights (tiny)"
    model_kind: ModelKind
    load_seconds: float
    decode: str = ""  # e.g. "jit-int8"
    notes: tuple[str, ...] = ()  # how the model runs, when it is not what was asked for
    precision: str = ""  # what the decode step computes in ("" for ChatTTS's own path)
    precision_asked: str = ""


@dataclass
class WindowJob:
    """A request from the window, numbered so that its results find their way back."""

    id: int
    request: SynthesisRequest


def _unexpected(what: str, exc: BaseException) -> str:
    return what.format(error=f"{type(exc).__name__}: {exc}")


def _warm_up(engine: Engine, synth) -> None:
    """The decode step's first runs, on the engine's thread between requests, after the window
    has said the model is ready: one part per call, so a Play pressed meanwhile waits at most
    for the part that is running (its first sentence is decoded before the next part)."""
    try:
        synth.warm_up(run=engine.call)
    except Exception as exc:  # the model was unloaded meanwhile, or the warm-up failed: the
        log.info("warm-up skipped: %s", exc)  # first request then pays the first runs itself
        return
    if engine.closed:  # another model is loading: this one's encoder would only delay it
        return
    try:
        synth.finish_loading()
    except Exception as exc:  # the request that needs the audio encoder tries again and says why
        log.info("audio encoder not preloaded: %s", exc)


class SynthesisWorker(QObject):
    loadStarted = Signal(str)
    loaded = Signal(object)  # ModelStatus
    loadFailed = Signal(str)  # the user-facing sentence
    started = Signal(int)  # job id
    chunkReady = Signal(int, object)  # job id, AudioChunk
    progress = Signal(int, int, int)  # job id, segments done, segments total
    finished = Signal(int, object)  # job id, SynthesisResult
    failed = Signal(int, str)  # job id, sentence
    cancelled = Signal(int)  # job id
    referenceReady = Signal(str, str, str)  # audio codes, transcript, source file
    referenceFailed = Signal(str)

    def __init__(self, synthesizer_factory=None):
        super().__init__()
        if synthesizer_factory is None:
            from app.synthesis import Synthesizer as synthesizer_factory
        self._factory = synthesizer_factory
        self._synth = None
        self._engine: Engine | None = None
        self._lock = threading.Lock()
        self._cancelled_upto = 0
        self._running: dict[int, object] = {}  # window job id -> engine job

    # -- called from the GUI thread -------------------------------------------------
    def cancel(self, job_id: int) -> None:
        """Cancel job `job_id` and every earlier one, running or still queued."""
        with self._lock:
            self._cancelled_upto = max(self._cancelled_upto, job_id)
            running = [job for wid, job in self._running.items() if wid <= job_id]
        for job in running:
            job.cancel()

    def synthesizer(self):
        """The loaded synthesizer (None before loading); its prepare() is safe from any thread."""
        with self._lock:
            return self._synth

    def engine(self) -> Engine | None:
        """The engine serving the loaded model (None before loading): other clients submit here."""
        with self._lock:
            return self._engine

    def shutdown(self) -> None:
        with self._lock:
            engine, self._engine, self._synth = self._engine, None, None
        if engine is not None:
            engine.close(timeout=30)

    # -- run on the worker thread ----------------------------------------------------
    @Slot(str, str)
    def makeReference(self, path: str, transcript: str) -> None:
        engine, synth = self.engine(), self.synthesizer()
        if engine is None:
            self.referenceFailed.emit(_("Load a model first: the voice is made by the model."))
            return
        try:
            codes, text = engine.call(lambda: synth.voice_from_recording(path, transcript))
        except StudioError as exc:
            self.referenceFailed.emit(str(exc))
            return
        except Exception as exc:
            log.exception("reference voice failed")
            self.referenceFailed.emit(
                _unexpected(_("The recording could not be used: {error}"), exc)
            )
            return
        self.referenceReady.emit(codes, text, path)

    @Slot(str, str, str)
    def loadModel(self, model_dir: str, device: str, precision: str = "auto") -> None:
        self.loadStarted.emit(model_dir)
        self.shutdown()  # one model in memory at a time
        try:
            synth = self._factory(model_dir, device=device, precision=precision)
            # Loaded on the thread that will decode with it: this worker's thread stays alive,
            # and its OpenMP pool beside the engine's would slow decoding (engine.py). Play is
            # possible first; the warm-up follows.
            engine = Engine.loading(synth, warm_up=False)
        except StudioError as exc:
            self.loadFailed.emit(str(exc))
            return
        except Exception as exc:  # a bug, but the window must say something useful
            log.exception("model load crashed")
            self.loadFailed.emit(_unexpected(_("The model could not be loaded: {error}"), exc))
            return
        with self._lock:
            self._synth, self._engine = synth, engine
        self.loaded.emit(
            ModelStatus(
                root=str(synth.store.root),
                device=synth.device.device,
                device_reason=synth.device.reason,
                kind=synth.store.kind,
                model_kind=synth.model_kind,
                load_seconds=synth.load_seconds or 0.0,
                decode=synth.decode_label,
                notes=tuple(synth.notes),
                precision=synth.precision,
                precision_asked=precision,
            )
        )
        threading.Thread(target=_warm_up, args=(engine, synth), name="warm-up", daemon=True).start()

    @Slot(object)
    def run(self, job: WindowJob) -> None:
        with self._lock:
            engine = self._engine
            if job.id <= self._cancelled_upto:
                engine = None
                skip = True
            else:
                skip = False
        if skip:
            self.cancelled.emit(job.id)
            return
        if engine is None:
            self.failed.emit(job.id, _("No model is loaded yet; choose a model folder first."))
            return
        self.started.emit(job.id)
        try:
            handle = engine.submit(job.request, Priority.INTERACTIVE)
            with self._lock:
                self._running[job.id] = handle
                late = job.id <= self._cancelled_upto  # Stop came while it was submitted
            if late:
                handle.cancel()
            for item in handle:
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
            self.failed.emit(
                job.id,
                _unexpected(
                    _("Synthesis failed unexpectedly ({error}); the details are in the log file."),
                    exc,
                ),
            )
        finally:
            with self._lock:
                self._running.pop(job.id, None)


class WorkerThread(OwnedThread):
    """The synthesis worker on its thread; `shutdown()` cancels, stops and waits."""

    submit = Signal(object)  # WindowJob -> worker.run (queued)
    requestLoad = Signal(
        str, str, str
    )  # model folder, device, precision -> worker.loadModel (queued)
    requestReference = Signal(str, str)  # -> worker.makeReference (queued)

    def __init__(self, synthesizer_factory=None, parent=None):
        super().__init__(SynthesisWorker(synthesizer_factory), "synthesis-worker", parent)
        self.submit.connect(self.worker.run)
        self.requestLoad.connect(self.worker.loadModel)
        self.requestReference.connect(self.worker.makeReference)
        self._next_id = 0

    def new_job(self, request: SynthesisRequest) -> WindowJob:
        self._next_id += 1
        return WindowJob(self._next_id, request)

    def stop_work(self) -> None:
        self.worker.cancel(self._next_id)

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        stopped = super().shutdown(timeout_ms)
        self.worker.shutdown()
        return stopped
