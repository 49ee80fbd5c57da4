"""Downloads and imports the model on its own thread; the dialog only shows progress."""

from __future__ import annotations

import copy
import logging
import threading

from PySide6.QtCore import QObject, Signal, Slot

from app.core import DownloadCancelled, StudioError
from app.i18n import _
from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")


class DownloadWorker(QObject):
    progress = Signal(object)  # DownloadProgress (a copy: the worker keeps changing its own)
    finished = Signal(object)  # VerifyReport of the installed model
    failed = Signal(str)
    cancelled = Signal(str)

    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()
        self._downloader = None

    def cancel(self) -> None:
        with self._lock:
            if self._downloader is not None:
                self._downloader.cancel()

    @Slot(str, str, str)
    def download(self, target: str, source_name: str, url: str) -> None:
        from app.model import ModelDownloader, ModelStore, make_source

        try:
            source = make_source(source_name, url or None)
            downloader = ModelDownloader(
                target, source, on_progress=lambda p: self.progress.emit(copy.deepcopy(p))
            )
            with self._lock:
                self._downloader = downloader
            downloader.run()
            self.finished.emit(ModelStore(target).verify())  # files hashed once, by the downloader
        except DownloadCancelled as exc:
            self.cancelled.emit(str(exc))
        except StudioError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:
            log.exception("download crashed")
            self.failed.emit(
                _("The download failed unexpectedly ({error}).").format(
                    error=f"{type(exc).__name__}: {exc}"
                )
            )
        finally:
            with self._lock:
                self._downloader = None

    @Slot(str, str)
    def import_folder(self, source: str, target: str) -> None:
        from app.model import import_model

        try:
            self.finished.emit(import_model(source, target, link=True))
        except StudioError as exc:
            self.failed.emit(str(exc))
        except OSError as exc:
            self.failed.emit(
                _("The model could not be copied ({reason}).").format(reason=exc.strerror or exc)
            )


class DownloadThread(OwnedThread):
    requestDownload = Signal(str, str, str)
    requestImport = Signal(str, str)

    def __init__(self, parent=None):
        super().__init__(DownloadWorker(), "download-worker", parent)
        self.requestDownload.connect(self.worker.download)
        self.requestImport.connect(self.worker.import_folder)

    def stop_work(self) -> None:
        self.worker.cancel()
