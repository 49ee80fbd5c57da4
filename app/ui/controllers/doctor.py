"""The environment doctor off the GUI thread: quick checks at start-up, full ones on request,
and the last report, judged again in the current language when it changes."""

from __future__ import annotations

from urllib.parse import urlparse

from PySide6.QtCore import QObject, Signal, Slot

from app.doctor.checks import AFFECT_SYNTHESIS
from app.doctor.runner import rejudge
from app.i18n import current_language
from app.workers.doctor_worker import DoctorThread


class DoctorController(QObject):
    started = Signal(bool)  # quick
    reportReady = Signal(object, bool)  # Report, quick
    failed = Signal(str)  # the sentence to show

    def __init__(self, model_dir, probe_factory=None, parent=None):
        """`model_dir`: a callable giving the model folder to check."""
        super().__init__(parent)
        self._model_dir = model_dir
        self.report = None
        self._thread = DoctorThread(probe_factory, parent=self)
        self._thread.worker.finished.connect(self._on_report)
        self._thread.worker.failed.connect(self._on_failed)

    def run(self, quick: bool) -> None:
        self.started.emit(quick)
        self._thread.request.emit(str(self._model_dir()), quick)

    def problems(self) -> list:
        """Failed checks that stop or slow synthesis; missing model files are left to the
        model's own banner, which offers a folder chooser."""
        failed = self.report.failed if self.report is not None else []
        return [r for r in failed if r.id in AFFECT_SYNTHESIS and r.id != "model_files"]

    def unreachable_host(self) -> str | None:
        """The download host (its name) that did not answer the last run's network check, or None."""
        net = self.report.snapshot.get("network") if self.report is not None else None
        if not isinstance(net, dict) or net.get("hub_reachable") is not False:
            return None
        endpoint = str(net.get("hub_endpoint") or "https://huggingface.co")
        return urlparse(endpoint).netloc or endpoint

    def follow_language(self) -> bool:
        """Judge the last report again if the language changed (its sentences are quoted by the
        window); True if it was. The panels judge their own copy again on the same change."""
        if self.report is None or self.report.language == current_language():
            return False
        self.report = rejudge(self.report)
        return True

    def shutdown(self) -> bool:
        return self._thread.shutdown()

    @Slot(object, bool)
    def _on_report(self, report, quick: bool) -> None:
        self.report = report
        self.reportReady.emit(report, quick)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.failed.emit(message)
