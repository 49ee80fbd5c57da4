"""A worker QObject living on its own QThread, and the registry tests use to find leaks."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, QThread

_threads: weakref.WeakSet[QThread] = weakref.WeakSet()


def running_threads() -> list[QThread]:
    """Worker threads still running (tests fail if any outlives its window)."""
    return [t for t in list(_threads) if t.isRunning()]


class OwnedThread(QObject):
    """Owns a QThread and the worker moved onto it. Subclasses declare the request signals,
    connect them to the worker's slots, and say in `stop_work()` how to stop a running job.

    The QThread is `qthread`: a `thread` attribute would hide QObject.thread(), which Qt and
    PySide call to learn which thread an object lives in."""

    def __init__(self, worker: QObject, name: str, parent=None):
        super().__init__(parent)
        self.qthread = QThread()
        self.qthread.setObjectName(name)
        self.worker = worker
        worker.moveToThread(self.qthread)
        _threads.add(self.qthread)
        self.qthread.start()

    def stop_work(self) -> None:
        """Ask the job in progress to end early (default: let it finish)."""

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        self.stop_work()
        self.qthread.quit()
        return self.qthread.wait(timeout_ms)
