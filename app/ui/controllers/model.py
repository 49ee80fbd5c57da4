"""The model's lifecycle: which folder, whether its files are there, loading it on the worker
thread, and the state the window, the menus and the first-run wizard show."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.engine.device import DeviceOption
from app.engine.models.store import ModelStore
from app.workers.synthesis_worker import ModelStatus


class ModelState(Enum):
    UNKNOWN = "unknown"      # not looked at yet, or its files are there and loading is next
    MISSING = "missing"      # the folder lacks model files (`missing_folder` says which)
    LOADING = "loading"
    READY = "ready"          # `status` describes what was loaded
    FAILED = "failed"        # `error` is the sentence the engine gave


class ModelController(QObject):
    stateChanged = Signal(object)      # ModelState

    def __init__(self, settings, worker_thread, parent=None):
        super().__init__(parent)
        self.settings = settings
        self._worker = worker_thread
        self.state = ModelState.UNKNOWN
        self.status: ModelStatus | None = None
        self.error: str | None = None
        self.missing_folder: str | None = None
        self.recommended_device: DeviceOption | None = None
        worker = worker_thread.worker
        worker.loadStarted.connect(self._on_load_started)
        worker.loaded.connect(self.on_loaded)
        worker.loadFailed.connect(self._on_load_failed)

    def _set(self, state: ModelState, status: ModelStatus | None = None, error: str | None = None,
             missing: str | None = None) -> None:
        self.state, self.status, self.error, self.missing_folder = state, status, error, missing
        self.stateChanged.emit(state)

    def model_dir(self) -> Path:
        return ModelStore(self.settings.model_dir or None).root

    def effective_device(self) -> str:
        """The user's choice in settings, else what the doctor recommends."""
        if self.settings.device != DeviceOption.AUTO:
            return self.settings.device
        return (self.recommended_device or DeviceOption.AUTO).value

    def check_presence(self) -> bool:
        """Cheap file checks on the GUI thread, so a missing model is said at once."""
        store = ModelStore(self.settings.model_dir or None)
        if not store.root.is_dir() or store.missing():
            self._set(ModelState.MISSING, missing=str(store.root))
            return False
        self._set(ModelState.UNKNOWN)
        return True

    def load(self) -> None:
        if self.check_presence():
            self._worker.requestLoad.emit(str(self.model_dir()), self.effective_device(),
                                          self.settings.precision)

    def set_model_dir(self, path: str) -> None:
        self.settings.model_dir = path
        self.settings.sync()
        self.load()

    def set_device(self, device: str) -> None:
        self.settings.device = device
        self.load()

    def set_precision(self, precision: str) -> None:
        self.settings.precision = precision
        self.load()

    def use_recommendation(self, report) -> None:
        self.recommended_device = report.recommendation.device

    def synthesizer(self):
        """The loaded synthesizer, or None."""
        return self._worker.worker.synthesizer()

    def engine(self):
        """The engine serving the loaded model, or None: other clients (a narration render,
        the speech server) submit their requests here, beside the window's Play."""
        return self._worker.worker.engine()

    def prepare(self, text: str):
        """What will be spoken: with ChatTTS's own filter once the model is loaded, else ours.
        Raises StudioError with the sentence to show."""
        from app.engine.library.lexicon import PronunciationDictionary
        from app.engine.text.prepare import prepare_text

        synth = self.synthesizer()
        return synth.prepare(text) if synth is not None else prepare_text(text, PronunciationDictionary())

    @Slot(str)
    def _on_load_started(self, _root: str) -> None:
        self._set(ModelState.LOADING)

    @Slot(object)
    def on_loaded(self, status: ModelStatus) -> None:
        self._set(ModelState.READY, status=status)

    @Slot(str)
    def _on_load_failed(self, message: str) -> None:
        self._set(ModelState.FAILED, error=message)
