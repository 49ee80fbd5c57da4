"""Getting the model: pick a source, watch per-file progress, cancel, see the checksums."""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from app.core import StudioError
from app.model import (
    HF_MIRROR,
    MODEL_FILES,
    OFFICIAL_DOWNLOAD_GB,
    FileState,
    SourceName,
    make_source,
)
from app.ui.retranslate import Retranslating
from app.workers.download_worker import DownloadThread

SOURCES = tuple(SourceName)  # the order of the source list


def _mb(n) -> str:
    return f"{(n or 0) / 1e6:.1f} MB"


class DownloadDialog(Retranslating, QDialog):
    modelReady = Signal(str)  # the folder, once every file is verified

    def __init__(self, target: str, parent=None, settings=None, unreachable_host=None):
        """`unreachable_host`: gives the download host the doctor found silent, or None."""
        super().__init__(parent)
        self.setObjectName("downloadDialog")
        self.target = target
        self.settings = settings
        self._unreachable_host = unreachable_host or (lambda: None)
        self._contacting = ""  # the status line's text until the first bytes arrive
        self._silent_note = ""  # what the status line says about a silent host, if anything
        self.running = False
        self._unfinished: list[int] = []  # rows the last progress showed as not done
        self.downloads = DownloadThread(self)
        w = self.downloads.worker
        w.progress.connect(self.on_progress)
        w.finished.connect(self.on_finished)
        w.failed.connect(self.on_failed)
        w.cancelled.connect(self.on_cancelled)

        self.source = QComboBox()
        self.source.setObjectName("downloadSource")
        self.url = QLineEdit()
        self.url.setObjectName("downloadUrl")
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.table = QTableWidget(len(MODEL_FILES), 3)
        self.table.setObjectName("downloadFiles")
        self.table.horizontalHeader().setStretchLastSection(True)
        for row, rel in enumerate(MODEL_FILES):
            self.table.setItem(row, 0, QTableWidgetItem(rel))
            self.table.setItem(row, 1, QTableWidgetItem(""))
            self.table.setItem(row, 2, QTableWidgetItem(""))
        self.table.setColumnWidth(0, 300)
        self.total = QProgressBar()
        self.total.setObjectName("downloadProgress")
        self.status = QLabel()
        self.status.setObjectName("downloadStatus")
        self.status.setWordWrap(True)
        self.start_button = QPushButton()
        self.start_button.setObjectName("downloadStart")
        self.cancel_button = QPushButton()
        self.cancel_button.setObjectName("downloadCancel")
        self.close_button = QPushButton()
        source_row = QHBoxLayout()
        source_row.addWidget(self.source)
        source_row.addWidget(self.url, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(source_row)
        layout.addWidget(self.where)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.total)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        self.source.currentIndexChanged.connect(self._source_changed)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)
        self.resize(760, 480)
        self.retranslate()
        self._set_running(False)
        if settings is not None and settings.download_source in SOURCES:
            self.select_source(settings.download_source, settings.download_url)

    def _source_changed(self) -> None:
        name = SOURCES[self.source.currentIndex()]
        self.url.setVisible(name.takes_address)
        if name == SourceName.MIRROR and not self.url.text():
            self.url.setText(HF_MIRROR)
        if not self.running:
            silent = self.silent_host()
            note = (
                self.tr(
                    "%1 did not answer when this computer was checked: choose ModelScope or a mirror, "
                    "or Download to try it again."
                ).replace("%1", silent)
                if silent
                else ""
            )
            if note or self.status.text() == self._silent_note:
                self.status.setText(note)
            self._silent_note = note

    def silent_host(self) -> str | None:
        """The chosen source's host when the doctor found it silent (test_a_silent_host_is_said_at_once)."""
        host = self._unreachable_host()
        if not host:
            return None
        try:
            source = make_source(
                SOURCES[self.source.currentIndex()].value, self.url.text().strip() or None
            )
        except StudioError:
            return None
        return host if source.host == host else None

    def select_source(self, name: str, url: str = "") -> None:
        self.source.setCurrentIndex(SOURCES.index(SourceName(name)))
        if url:
            self.url.setText(url)

    def start(self) -> None:
        name = SOURCES[self.source.currentIndex()]
        if self.settings is not None:  # the mirror or address chosen last time is offered again
            self.settings.download_source = name.value
            self.settings.download_url = self.url.text().strip()
        silent = self.silent_host()
        self._contacting = (
            self.tr(
                "Trying %1 again; it did not answer when this computer was checked, so this may fail after "
                "a while. ModelScope or a mirror may work instead."
            ).replace("%1", silent)
            if silent
            else self.tr("Contacting the download host...")
        )
        self.status.setText(self._contacting)
        self._set_running(True)
        self.downloads.requestDownload.emit(self.target, name.value, self.url.text().strip())

    def import_folder(self, folder: str) -> None:
        self._contacting = self.tr("Copying and verifying %1...").replace("%1", folder)
        self.status.setText(self._contacting)
        self._set_running(True)
        self.downloads.requestImport.emit(folder, self.target)

    def cancel(self) -> None:
        self.downloads.worker.cancel()
        self.status.setText(self.tr("Cancelling..."))

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.start_button.setEnabled(not running)
        self.source.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    @Slot(object)
    def on_progress(self, progress) -> None:
        states = {
            FileState.WAITING: self.tr("waiting"),
            FileState.PRESENT: self.tr("already here, verified"),
            FileState.DOWNLOADING: self.tr("downloading"),
            FileState.VERIFYING: self.tr("checking sha256"),
            FileState.OK: self.tr("verified"),
            FileState.FAILED: self.tr("checksum mismatch"),
        }
        self._unfinished = [row for row, f in enumerate(progress.files) if not f.state.finished]
        for row, f in enumerate(progress.files):
            self.table.item(row, 1).setText(f"{_mb(f.done)} / {_mb(f.total)}" if f.total else "")
            self.table.item(row, 2).setText(states[f.state])
        total = progress.total_bytes or 1
        self.total.setRange(0, 1000)
        self.total.setValue(int(1000 * progress.done_bytes / total))
        eta = progress.eta_s
        if (
            not progress.done_bytes and not progress.speed_bps
        ):  # nothing yet: not "0.0 MB of 0.0 MB"
            self.status.setText(self._contacting)
            return
        self.status.setText(
            self.tr("%1 of %2 at %3/s%4")
            .replace("%1", _mb(progress.done_bytes))
            .replace("%2", _mb(progress.total_bytes))
            .replace("%3", _mb(progress.speed_bps))
            .replace("%4", self.tr(", about %1 s left").replace("%1", f"{eta:.0f}") if eta else "")
        )

    @Slot(object)
    def on_finished(self, report) -> None:
        self._set_running(False)
        for row, check in enumerate(report.files):
            self.table.item(row, 1).setText(_mb(check.size))
            self.table.item(row, 2).setText(
                self.tr("verified")
                if check.sha256_ok
                else self.tr("checksum mismatch")
                if check.present
                else self.tr("missing")
            )
        if report.ok:
            self.total.setRange(0, 1)
            self.total.setValue(1)
            self.status.setText(
                self.tr("All %1 files are present and match their sha256 checksums.").replace(
                    "%1", str(len(report.files))
                )
            )
            self.modelReady.emit(self.target)
        else:
            self.status.setText(
                self.tr("Some files are missing or damaged; start again to fetch them.")
            )

    def _mark_unfinished(self, text: str) -> None:
        """Rows not finished when the download ended say that it did."""
        for row in self._unfinished:
            self.table.item(row, 2).setText(text)
        self._unfinished = []

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self._set_running(False)
        self._mark_unfinished(self.tr("not downloaded"))
        self.status.setText(message)

    @Slot(str)
    def on_cancelled(self, message: str) -> None:
        self._set_running(False)
        self._mark_unfinished(self.tr("stopped, resumes next time"))
        self.status.setText(message)

    def closeEvent(self, event) -> None:
        if not self.downloads.shutdown():
            event.ignore()
            return
        super().closeEvent(event)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Get the ChatTTS model"))
        current = self.source.currentIndex()
        self.source.blockSignals(True)
        self.source.clear()
        labels = {
            SourceName.HUGGINGFACE: self.tr("Hugging Face"),
            SourceName.MIRROR: self.tr("Hugging Face mirror"),
            SourceName.MODELSCOPE: self.tr("ModelScope (mainland China)"),
            SourceName.CUSTOM: self.tr("Custom address"),
        }
        self.source.addItems([labels[name] for name in SOURCES])
        self.source.setCurrentIndex(max(0, current))
        self.source.blockSignals(False)
        self._source_changed()
        self.url.setPlaceholderText(self.tr("https://..."))
        self.where.setText(
            self.tr("Into %1 (about %2 GB). Interrupted downloads resume where they stopped.")
            .replace("%1", self.target)
            .replace("%2", f"{OFFICIAL_DOWNLOAD_GB:.1f}")
        )
        self.table.setHorizontalHeaderLabels([self.tr("File"), self.tr("Size"), self.tr("State")])
        self.start_button.setText(self.tr("Download"))
        self.cancel_button.setText(self.tr("Cancel"))
        self.close_button.setText(self.tr("Close"))
