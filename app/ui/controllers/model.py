"""The model's lifecycle: which folder, whether its files are there, loading it on the worker
thread, and the state the window, the menus and the first-run wizard show."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core import DeviceOption, ModelKind
from app.doctor.recommendation import Because
from app.model import ModelStore
from app.workers.synthesis_worker import ModelStatus

_NONE = object()


class ModelState(Enum):
    UNKNOWN = "unknown"  # not looked at yet, or its files are there and loading is next
    MISSING = "missing"  # the folder lacks model files (`missing_folder` says which)
    LOADING = "loading"
    READY = "ready"  # `status` describes what was loaded
    FAILED = "failed"  # `error` is the sentence the engine gave


DEVICE_KEY = "model/device"  # the session's device override (app/ui/settings.py)


@dataclass(frozen=True)
class DeviceNotice:
    """A device that could not be used and what runs instead (the window words it)."""

    asked: str  # the DeviceOption value that failed or cannot run
    reason: str  # the engine's or the doctor's sentence
    running: str  # the device the model is back on ("cpu", "cuda:0") or the option used
    at_start: bool = False  # the saved device, found unusable when the model loads


class ModelController(QObject):
    stateChanged = Signal(object)  # ModelState
    deviceNoticeChanged = Signal()

    def __init__(self, settings, worker_thread, parent=None, device_probe=None):
        """`device_probe(device) -> reason or None`: why a device cannot run (tests give a fake
        one); by default the doctor's recommendation says it once its quick checks have run."""
        super().__init__(parent)
        self.settings = settings
        self._worker = worker_thread
        self._device_probe = device_probe
        self.state = ModelState.UNKNOWN
        self.status: ModelStatus | None = None
        self.error: str | None = None
        self.missing_folder: str | None = None
        self.recommended_device: DeviceOption | None = None
        self.recommendation = None
        self.device_notice: DeviceNotice | None = None
        # One entry per load asked of the worker, oldest first (it loads them in turn): None, or
        # for a device chosen in the menu (device, the override it replaced or _NONE). The device
        # is saved only once its own load ends well; a failure goes back to what worked.
        self._loads: deque[tuple[str, object] | None] = deque()
        self._trial: tuple[str, object] | None = None
        self._worked: str | None = None  # the device the last good load ran on
        worker = worker_thread.worker
        worker.loadStarted.connect(self._on_load_started)
        worker.loaded.connect(self.on_loaded)
        worker.loadFailed.connect(self._on_load_failed)

    def _set(
        self,
        state: ModelState,
        status: ModelStatus | None = None,
        error: str | None = None,
        missing: str | None = None,
    ) -> None:
        self.state, self.status, self.error, self.missing_folder = state, status, error, missing
        self.stateChanged.emit(state)

    def model_dir(self) -> Path:
        return ModelStore(self.settings.model_dir or None).root

    def effective_device(self) -> str:
        """The user's choice in settings, else what the doctor recommends."""
        if self.settings.device != DeviceOption.AUTO:
            return self.settings.device
        return (self.recommended_device or DeviceOption.AUTO).value

    def device_problem(self, device: str) -> str | None:
        """Why `device` cannot run here (the doctor's sentence), or None when it can or nobody
        knows yet. Only the GPU can be missing: the CPU and automatic always run."""
        if device != DeviceOption.CUDA:
            return None
        if self._device_probe is not None:
            return self._device_probe(device)
        rec = self.recommendation
        if rec is None or rec.device is DeviceOption.CUDA or rec.because is Because.NOT_WORKED_OUT:
            return None
        return rec.reason

    def _device_to_load(self) -> str:
        """The effective device, unless the doctor says it cannot run: then the CPU, and the
        notice says why (a GPU saved before this check existed must not fail every start)."""
        device = self.effective_device()
        problem = self.device_problem(device)
        if problem is None:
            return device
        self._set_notice(DeviceNotice(device, problem, DeviceOption.CPU.value, at_start=True))
        return DeviceOption.CPU.value

    def _set_notice(self, notice: DeviceNotice | None) -> None:
        self.device_notice = notice
        self.deviceNoticeChanged.emit()

    def dismiss_device_notice(self) -> None:
        self._set_notice(None)

    def check_presence(self) -> bool:
        """Cheap file checks on the GUI thread, so a missing model is said at once."""
        store = ModelStore(self.settings.model_dir or None)
        if not store.root.is_dir() or store.missing():
            self._set(ModelState.MISSING, missing=str(store.root))
            return False
        self._set(ModelState.UNKNOWN)
        return True

    def load(self) -> None:
        trial, self._trial = self._trial, None
        if self.check_presence():
            self._loads.append(trial)
            self._worker.requestLoad.emit(
                str(self.model_dir()), self._device_to_load(), self.settings.precision
            )

    def set_model_dir(self, path: str) -> None:
        self.settings.model_dir = path
        self.settings.sync()
        self.load()

    def set_device(self, device: str) -> None:
        """A device from the menu: refused at once with the doctor's reason when it cannot run;
        else tried, and saved only once the model loads on it (tests/ui/test_device_switch.py)."""
        problem = self.device_problem(device)
        if problem is not None:
            self._set_notice(
                DeviceNotice(device, problem, self.status.device if self.status else "")
            )
            return
        self._set_notice(None)
        overrides = self.settings.overrides
        self._trial = (device, overrides.get(DEVICE_KEY, _NONE))
        overrides[DEVICE_KEY] = device
        self.load()

    def set_precision(self, precision: str) -> None:
        self.settings.precision = precision
        self.load()

    def use_recommendation(self, report) -> None:
        self.recommendation = report.recommendation
        self.recommended_device = report.recommendation.device

    def model_kind(self) -> ModelKind:
        """What the loaded model is; with none loaded, nothing is called noise."""
        status = self.status if self.state is ModelState.READY else None
        return status.model_kind if status is not None else ModelKind.OFFICIAL

    def makes_noise(self) -> bool:
        """A random-weight model is loaded: what it makes is called noise, not speech."""
        return not self.model_kind().makes_speech

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
        from app.library import PronunciationDictionary
        from app.text import prepare_text

        synth = self.synthesizer()
        return (
            synth.prepare(text)
            if synth is not None
            else prepare_text(text, PronunciationDictionary())
        )

    @Slot(str)
    def _on_load_started(self, _root: str) -> None:
        self._set(ModelState.LOADING)

    @Slot(object)
    def on_loaded(self, status: ModelStatus) -> None:
        trial = self._loads.popleft() if self._loads else None
        if trial is not None:
            self.settings.device = trial[0]  # it worked: now it is the user's choice
        self._worked = status.device
        self._set(ModelState.READY, status=status)

    @Slot(str)
    def _on_load_failed(self, message: str) -> None:
        trial = self._loads.popleft() if self._loads else None
        if trial is not None:
            device, before = trial
            overrides = self.settings.overrides
            if overrides.get(DEVICE_KEY) == device:  # no later choice replaced it
                overrides.pop(DEVICE_KEY, None)
                if before is not _NONE:
                    overrides[DEVICE_KEY] = before
            if self._worked is not None:  # a device worked before: back on it
                self._set_notice(DeviceNotice(device, message, self._worked))
                self.load()
                return
            self._set_notice(DeviceNotice(device, message, ""))
        self._set(ModelState.FAILED, error=message)
