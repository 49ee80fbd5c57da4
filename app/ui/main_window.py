"""The main window: text, voice, parameters, Play/Stop/Export, history, status.

Services (settings, sound output, history, voice library, synthesizer factory) are passed
in, so tests run the real window with a fake sound output and a tiny model. The model is
loaded by the worker after the window is shown (`start()`), never on the GUI thread.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout, QLabel, QMainWindow, QMessageBox, QProgressBar,
    QPushButton, QSplitter, QTabWidget, QVBoxLayout, QWidget,
)

from app.ui.retranslate import Retranslating
from app.engine.audio.wav import SAMPLE_RATE
from app.engine.errors import InputTextError, StudioError
from app.engine.audio.playback import AudioOutput, SoundDeviceOutput
from app.engine.request import ParameterError, SynthesisRequest
from app.engine.text.prepare import check_text
from app.engine.library import HistoryStore, VoiceLibrary
from app.ui.banner import Banner
from app.ui.history_panel import HistoryPanel
from app.ui.menus import build_menus
from app.ui.params_panel import ParamsPanel
from app.ui.settings import Settings
from app.ui.text_panel import TextPanel
from app.ui.voice_panel import VoicePanel
from app.ui.window_history import HistoryActions
from app.ui.window_library import LibraryActions
from app.ui.window_model import ModelActions
from app.ui.doctor_panel import DoctorDialog, DoctorPanel
from app.doctor.runner import rejudge
from app.i18n import current_language
from app.workers.doctor_worker import DoctorThread
from app.workers.synthesis_worker import ModelStatus, WorkerThread

log = logging.getLogger("chattts_studio.ui")


class MainWindow(Retranslating, ModelActions, HistoryActions, LibraryActions, QMainWindow):
    def __init__(self, settings: Settings, output: AudioOutput | None = None,
                 history: HistoryStore | None = None, voices: VoiceLibrary | None = None,
                 synthesizer_factory=None, doctor_probe_factory=None):
        super().__init__()
        self.setObjectName("mainWindow")
        self.settings = settings
        self.output = output if output is not None else SoundDeviceOutput(settings.output_device)
        self.history, voices, self._library_problem = self._open_library(history, voices)
        self.model_status: ModelStatus | None = None
        self._missing_model: str | None = None
        self._load_error: str | None = None
        self._job = None
        self._audition = False
        self._last_result = None
        self._closing = False
        self.last_report = None
        self.recommended_device: str | None = None
        self._load_after_doctor = False
        self.wizard = None
        self.download_dialog = None

        self.worker = WorkerThread(synthesizer_factory, parent=self)
        w = self.worker.worker
        w.loadStarted.connect(self.on_load_started)
        w.loaded.connect(self.on_loaded)
        w.loadFailed.connect(self.on_load_failed)
        w.chunkReady.connect(self.on_chunk)
        w.progress.connect(self.on_progress)
        w.finished.connect(self.on_finished)
        w.failed.connect(self.on_failed)
        w.cancelled.connect(self.on_cancelled)
        self.doctor = DoctorThread(doctor_probe_factory, parent=self)
        self.doctor.worker.finished.connect(self.on_doctor_report)
        self.doctor.worker.failed.connect(self.on_doctor_failed)

        self._build(voices)
        self.menus = build_menus(self)
        self._restore()
        self.retranslate()
        self.refresh_history()
        self.show_library_notices()
        self._set_busy(False)

    # -- layout -----------------------------------------------------------------------
    def _build(self, voices: VoiceLibrary) -> None:
        self.model_banner = Banner("modelBanner")
        self.model_banner.button.clicked.connect(self.choose_model_folder)
        self.model_banner.button2.clicked.connect(self.open_download)
        self.audio_banner = Banner("audioBanner")
        self.audio_banner.button.clicked.connect(self.audio_banner.hide)
        self.library_banner = Banner("libraryBanner")
        self.library_banner.button.clicked.connect(self.library_banner.hide)
        self.doctor_banner = Banner("doctorBanner")
        self.doctor_banner.button.clicked.connect(self.open_doctor)
        self.doctor_panel = DoctorPanel()
        self.doctor_panel.rerunRequested.connect(lambda: self.run_doctor(quick=False))
        self.doctor_dialog = DoctorDialog(self.doctor_panel, self)
        self.text_panel = TextPanel()
        self.text_panel.preview_button.clicked.connect(self.preview)
        self.voice_panel = VoicePanel(voices)
        self.voice_panel.auditionRequested.connect(self.audition)
        self.voice_panel.recordingVoiceRequested.connect(self.worker.requestReference)
        self.worker.worker.referenceReady.connect(self.on_reference_ready)
        self.worker.worker.referenceFailed.connect(self.on_reference_failed)
        self.params_panel = ParamsPanel()
        self.history_panel = HistoryPanel()
        self.history_panel.replayRequested.connect(self.replay)
        self.history_panel.exportRequested.connect(self.export_entry)
        self.history_panel.deleteRequested.connect(self.delete_entry)
        self.history_panel.regenerateRequested.connect(self.regenerate)

        self.play_button = QPushButton()
        self.play_button.setObjectName("playButton")
        self.stop_button = QPushButton()
        self.stop_button.setObjectName("stopButton")
        self.export_button = QPushButton()
        self.export_button.setObjectName("exportButton")
        self.play_button.clicked.connect(self.play)
        self.stop_button.clicked.connect(self.stop)
        self.export_button.clicked.connect(self.export_current)
        self.progress = QProgressBar()
        self.progress.setObjectName("progressBar")
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setObjectName("statusLabel")
        self.statusBar().addWidget(self.status, 1)

        controls = QHBoxLayout()
        for button in (self.play_button, self.stop_button, self.export_button):
            controls.addWidget(button)
        controls.addWidget(self.progress, 1)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.addWidget(self.model_banner)
        left_layout.addWidget(self.doctor_banner)
        left_layout.addWidget(self.audio_banner)
        left_layout.addWidget(self.library_banner)
        left_layout.addWidget(self.text_panel, 1)
        left_layout.addLayout(controls)
        # Every warning of the last result, in full (the status line has room for one line).
        self.result_warnings = QLabel()
        self.result_warnings.setObjectName("resultWarnings")
        self.result_warnings.setWordWrap(True)
        self.result_warnings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_warnings.hide()
        left_layout.addWidget(self.result_warnings)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("sideTabs")
        for panel in (self.voice_panel, self.params_panel, self.history_panel):
            page = QWidget()
            QVBoxLayout(page).addWidget(panel)
            self.tabs.addTab(page, "")

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.setCentralWidget(splitter)

        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, activated=self.play)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, activated=self.stop)
        QShortcut(QKeySequence("Ctrl+S"), self, activated=self.export_current)

    def _restore(self) -> None:
        s = self.settings
        if s.geometry is None or not self.restoreGeometry(s.geometry):
            screen = self.screen().availableGeometry()
            self.resize(min(1000, int(screen.width() * 0.9)), min(640, int(screen.height() * 0.9)))
        self.voice_panel.set_voice(s.seed, s.speaker or None)
        self.params_panel.set_values(s.params)

    def save_settings(self) -> None:
        s = self.settings
        s.geometry = self.saveGeometry()
        s.seed = self.voice_panel.seed_value()
        s.speaker = self.voice_panel.explicit_speaker() or ""
        s.params = self.params_panel.values()
        s.sync()

    # -- model ------------------------------------------------------------------------

    def start(self) -> None:
        """Once the window is visible: the quick doctor checks (off the GUI thread), then the
        model loads on the device they recommend."""
        self._report_audio_problem()
        self._load_after_doctor = self._check_model_presence()
        if self._load_after_doctor:
            self.status.setText(self.tr("Checking this computer..."))
        self.run_doctor(quick=True)

    # -- doctor (the actions are in window_model.py) ------------------------------------

    @Slot(object, bool)
    def on_doctor_report(self, report, quick: bool) -> None:
        self.last_report = report
        self.recommended_device = report.recommendation.get("device")
        self.doctor_panel.set_report(report)
        self._update_doctor_banner()
        if self._load_after_doctor:
            self._load_after_doctor = False
            self.load_model()

    @Slot(str)
    def on_doctor_failed(self, message: str) -> None:
        self.doctor_panel.show_error(message)
        if self._load_after_doctor:
            self._load_after_doctor = False
            self.load_model()

    def _report_audio_problem(self) -> None:
        if self.output.problem:
            self.audio_banner.show_message(self.output.problem, "info", self.tr("Dismiss"))
        else:
            self.audio_banner.hide()

    def use_output(self, output: AudioOutput) -> None:
        """Switch sound output (the device chosen in the Audio menu)."""
        self.output.stop()
        self.output = output
        self._report_audio_problem()

    @Slot(str)
    def on_load_started(self, _root: str) -> None:
        self.status.setText(self.tr("Loading the model..."))
        self.progress.setRange(0, 0)
        self.play_button.setEnabled(False)

    @Slot(object)
    def on_loaded(self, status: ModelStatus) -> None:
        self.model_status = status
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self._update_model_banner()
        self.status.setText(self._ready_text())
        self._set_busy(False)

    @Slot(str)
    def on_load_failed(self, message: str) -> None:
        self.progress.setRange(0, 1)
        self._load_error = message
        self._update_model_banner()
        self.status.setText(self.tr("The model could not be loaded"))
        self._set_busy(False)

    # -- synthesis ----------------------------------------------------------------------
    def current_request(self) -> SynthesisRequest:
        reference, reference_text = self.voice_panel.reference() or (None, None)
        request = SynthesisRequest(text=self.text_panel.text(), seed=self.voice_panel.seed_value(),
                                   speaker=self.voice_panel.explicit_speaker(),
                                   reference=reference, reference_text=reference_text)
        return self.params_panel.apply_to(request)

    # -- text and voices ---------------------------------------------------------------
    def preview(self) -> None:
        """Show exactly what will be spoken (with ChatTTS's own filter once the model is loaded)."""
        from app.engine.library.lexicon import PronunciationDictionary
        from app.engine.text.prepare import prepare_text

        text = self.text_panel.text()
        synth = self.worker.worker.synthesizer()
        try:
            prepared = synth.prepare(text) if synth is not None else prepare_text(text, PronunciationDictionary())
        except StudioError as exc:
            self.text_panel.show_preview(str(exc))
            return
        notes = "".join(f"\n⚠ {w}" for w in prepared.warnings)
        self.text_panel.show_preview(prepared.spoken + notes)

    def audition(self, voice) -> None:
        """The selected voice says a fixed sentence (not kept in history)."""
        reference = (voice.reference, voice.reference_text) if voice.reference else (None, None)
        request = SynthesisRequest(text=self.tr("Hello! This is how I sound."), seed=voice.seed or 0,
                                   speaker=voice.speaker or None, reference=reference[0],
                                   reference_text=reference[1], refine_text=False)
        self._audition = True
        self.start_request(request)

    @Slot(str, str, str)
    def on_reference_ready(self, codes: str, transcript: str, source: str) -> None:
        from app.engine.library.voices import Voice

        voice = Voice(name=Path(source).stem, speaker="", reference=codes, reference_text=transcript,
                      notes=self.tr("Made from %1").replace("%1", Path(source).name))
        self.voice_panel.library.save(voice)
        self.voice_panel.refresh()
        self.voice_panel.apply_voice(voice)
        self.status.setText(self.tr("Saved the voice \"%1\" made from the recording.").replace("%1", voice.name))

    @Slot(str)
    def on_reference_failed(self, message: str) -> None:
        self.status.setText(message)
        QMessageBox.warning(self, self.tr("Voice from a recording"), message)

    def play(self) -> None:
        self.start_request(self.current_request())

    def show_result_warnings(self, warnings: list[str]) -> None:
        self.result_warnings.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.result_warnings.setVisible(bool(warnings))

    def start_request(self, request: SynthesisRequest) -> None:
        if self._job is not None:
            return
        self.show_result_warnings([])
        try:
            check_text(request.text)
            request.validate()
        except InputTextError as exc:
            self.status.setText(str(exc))
            return
        except ParameterError as exc:
            self.status.setText(self.parameter_error_text(exc))
            return
        if self.model_status is None:
            self.status.setText(self.tr("The model is not loaded yet."))
            return
        self._job = self.worker.new_job(request)
        self.output.start(SAMPLE_RATE)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Speaking..."))
        self._set_busy(True)
        self.worker.submit.emit(self._job)

    def stop(self) -> None:
        self.output.stop()
        if self._job is None:
            return
        self.worker.worker.cancel(self._job.id)
        self._job = None
        self._audition = False
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status.setText(self.tr("Stopped."))
        self._set_busy(False)

    def _current(self, job_id: int) -> bool:
        return self._job is not None and self._job.id == job_id

    @Slot(int, object)
    def on_chunk(self, job_id: int, chunk) -> None:
        if self._current(job_id):
            self.output.enqueue(chunk.samples)

    @Slot(int, int, int)
    def on_progress(self, job_id: int, done: int, total: int) -> None:
        if self._current(job_id):
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    @Slot(int, object)
    def on_finished(self, job_id: int, result) -> None:
        if not self._current(job_id):
            return
        request, self._job = self._job.request, None
        self.output.end_stream()
        if self._audition:
            self._audition = False
        else:
            self._last_result = result
            self.voice_panel.show_seed_speaker(result.speaker)
            try:
                entry = self.history.add(request, result)
                self.refresh_history()
                self.history_panel.select(entry.id)
            except (OSError, StudioError) as exc:
                self.history_not_saved(exc)
        note = self.tr(" (test model: noise, not speech)") if result.test_model else ""
        if result.warnings:
            note += "  ⚠ " + self.tr("%n warning(s), below", "", len(result.warnings))
        self.show_result_warnings(result.warnings)
        self.status.setText(self.tr("%1 s of audio in %2 s on %3").replace("%1", f"{result.duration:.1f}")
                            .replace("%2", f"{result.synth_seconds:.1f}").replace("%3", result.device) + note)
        self._set_busy(False)

    @Slot(int, str)
    def on_failed(self, job_id: int, message: str) -> None:
        if not self._current(job_id):
            return
        self._job = None
        self._audition = False
        self.output.stop()
        self.status.setText(message)
        self._set_busy(False)
        if not self._closing:
            QMessageBox.warning(self, self.tr("Synthesis failed"), message)

    @Slot(int)
    def on_cancelled(self, job_id: int) -> None:
        if self._current(job_id):
            self._job = None
            self._audition = False
            self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        ready = self.model_status is not None
        self.play_button.setEnabled(ready and not busy)
        self.stop_button.setEnabled(busy)
        self.export_button.setEnabled(not busy and (self._last_result is not None
                                                    or self.history_panel.selected_id() is not None))
        if not busy and self.progress.maximum() == 0 and ready:
            self.progress.setRange(0, 1)

    def is_busy(self) -> bool:
        return self._job is not None


    # -- language, closing ------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("ChatTTS Studio"))
        self.play_button.setText(self.tr("Play"))
        self.play_button.setToolTip(self.tr("Speak the text (Ctrl+Enter)"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop speaking (Esc)"))
        self.export_button.setText(self.tr("Export WAV..."))
        self.export_button.setToolTip(self.tr("Save the selected result as a WAV file (Ctrl+S)"))
        self.tabs.setTabText(0, self.tr("Voice"))
        self.tabs.setTabText(1, self.tr("Parameters"))
        self.tabs.setTabText(2, self.tr("History"))
        self.menus.retranslate()
        self._update_model_banner()
        if self.last_report is not None and self.last_report.language != current_language():
            self.last_report = rejudge(self.last_report)   # the banner quotes a check's summary
            self._update_doctor_banner()
        if not self.doctor_banner.isHidden():
            self.doctor_banner.button.setText(self.tr("Open diagnostics"))
        if not self.audio_banner.isHidden():
            self.audio_banner.button.setText(self.tr("Dismiss"))
        if not self.library_banner.isHidden():
            self.library_banner.button.setText(self.tr("Dismiss"))
        if self.model_status is not None and not self.is_busy():
            self.status.setText(self._ready_text())

    def closeEvent(self, event):
        self._closing = True
        self.save_settings()
        self.output.stop()
        if self.wizard is not None:
            self.wizard.close()
        if self.download_dialog is not None:
            self.download_dialog.close()
        self.doctor_dialog.close()
        if not self.worker.shutdown():
            log.error("the synthesis thread did not stop in time")
        if not self.doctor.shutdown():
            log.error("the doctor thread did not stop in time")
        super().closeEvent(event)


def show_when_ready(window: MainWindow) -> None:
    """Show first, then start the checks and loading on the next turn of the event loop."""
    window.show()
    QTimer.singleShot(0, window.start)
    if not window.settings.first_run_done:
        QTimer.singleShot(0, window.open_wizard)
