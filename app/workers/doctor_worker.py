"""Runs the doctor off the GUI thread: quick checks at start-up, full ones from the panel."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal, Slot

from app.i18n import _
from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")


class DoctorWorker(QObject):
    finished = Signal(object, bool)  # Report, quick
    failed = Signal(str)

    def __init__(self, probe_factory=None):
        super().__init__()
        self._probe_factory = probe_factory

    def _probe(self, model_dir: str, quick: bool):
        if self._probe_factory is not None:
            return self._probe_factory(model_dir, quick)
        from app.doctor.probes.live import LiveProbe

        return LiveProbe(model_dir or None, verify_model=not quick, offline=quick)

    @Slot(str, bool)
    def run(self, model_dir: str, quick: bool) -> None:
        from app.doctor.runner import run_doctor

        try:
            report = run_doctor(self._probe(model_dir, quick))
        except Exception as exc:  # the doctor must never take the window down
            log.exception("doctor crashed")
            self.failed.emit(
                _("The diagnostics could not run: {error}").format(
                    error=f"{type(exc).__name__}: {exc}"
                )
            )
            return
        self.finished.emit(report, quick)


class DoctorThread(OwnedThread):
    request = Signal(str, bool)  # model dir, quick

    def __init__(self, probe_factory=None, parent=None):
        super().__init__(DoctorWorker(probe_factory), "doctor-worker", parent)
        self.request.connect(self.worker.run)
