"""The main window: a thin composition of controllers and panels.

It builds the controllers (model, speech, history, doctor; app/ui/controllers), hands them to
the widgets that need them, wires their signals to the status line and the buttons, and owns
the layout. Services (settings, sound output, history, voice library, synthesizer factory,
doctor probe) are passed in, so tests run the real window with a fake sound output and a tiny
model. The model is loaded by the worker after the window is shown (`start()`).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QMainWindow, QMessageBox

from app.audio import AudioOutput, SoundDeviceOutput
from app.core import InputTextError, ParameterError, StudioError, SynthesisRequest
from app.library import HistoryStore, VoiceLibrary
from app.ui.anywhere import ReadingAnywhere
from app.ui.controllers import (
    DoctorController,
    HistoryController,
    ModelController,
    ModelState,
    NotReady,
    SpeechController,
)
from app.ui.controllers.server import SpeechServerController
from app.ui.controllers.takes import TakeCheckController, another_take
from app.ui.doctor_panel import DoctorDialog
from app.ui.i18n import apply_language
from app.ui.main_menu import main_menus
from app.ui.menus import build_menus
from app.ui.model_folders import ModelFolders
from app.ui.narration.launcher import NarrationLauncher
from app.ui.read_along import ReadAlong
from app.ui.retranslate import Retranslating
from app.ui.settings import Settings
from app.ui.text_preview import TextPreview
from app.ui.window_layout import WindowLayout
from app.workers.synthesis_worker import ModelStatus, WorkerThread

log = logging.getLogger("chattts_studio.ui")


class MainWindow(Retranslating, QMainWindow):
    def __init__(
        self,
        settings: Settings,
        output: AudioOutput | None = None,
        history: HistoryStore | None = None,
        voices: VoiceLibrary | None = None,
        synthesizer_factory=None,
        doctor_probe_factory=None,
        device_probe=None,
    ):
        super().__init__()
        self.setObjectName("mainWindow")
        self.settings = settings
        self.wizard = None
        self.pronunciation_dialog = None
        self._last_result = None
        self._retake = None  # the request of a "try another take" under way
        self._closing = False
        self._load_after_doctor = False

        self._synthesis = WorkerThread(synthesizer_factory, parent=self)
        self.model = ModelController(settings, self._synthesis, self, device_probe=device_probe)
        output = output if output is not None else SoundDeviceOutput(settings.output_device)
        self.speech = SpeechController(self._synthesis, self.model, output, self)
        self.history = HistoryController(history, voices, self)
        self.takes = TakeCheckController(self.history, self.model.engine, self)
        self.doctor = DoctorController(self.model.model_dir, doctor_probe_factory, self)
        self.folders = ModelFolders(self.model, settings, self)
        self.folders.unreachable_host = self.doctor.unreachable_host
        self.speech_server = SpeechServerController(self.model, self)
        self.server_dialog = None

        self.ui = WindowLayout(self, self.model, self.speech, self.history, self.doctor, settings)
        for name in WindowLayout.WIDGETS:
            setattr(self, name, getattr(self.ui, name))  # the window's own widgets, by name
        self.doctor_dialog = DoctorDialog(self.doctor_panel, self)
        self.read_along = ReadAlong(self, self)
        self.narration = NarrationLauncher(
            self,
            self.model,
            self.speech,
            lambda: (self.voice_panel.seed_value(), self.voice_panel.explicit_speaker()),
            self,
        )
        self.anywhere = ReadingAnywhere(self, settings, self)  # tray, hotkey, clipboard
        self.menus = build_menus(
            self.menuBar(), main_menus(self, self.model, self.folders, self.speech, settings)
        )
        self._wire()
        self._restore()
        self.retranslate()
        self._update_buttons()

    def _wire(self) -> None:
        ui = self.ui
        ui.model_banner.chooseRequested.connect(lambda: self.folders.choose())
        ui.model_banner.downloadRequested.connect(lambda: self.folders.open_download())
        ui.doctor_banner.openRequested.connect(self.open_doctor)
        self.text_preview = TextPreview(ui.text_panel, self.model, self)
        ui.voice_panel.auditionRequested.connect(self.audition)
        ui.voice_panel.message.connect(self.status.setText)
        ui.history_panel.regenerateRequested.connect(self.regenerate)
        ui.history_panel.retakeRequested.connect(self.retake)
        ui.history_panel.selectionChanged.connect(self._check_selected)
        self.takes.notChecked.connect(self.status.setText)
        ui.history_panel.message.connect(self.status.setText)
        ui.history_panel.selectionChanged.connect(self._update_buttons)
        self.play_button.clicked.connect(self.play)
        self.stop_button.clicked.connect(self.stop)
        self.export_button.clicked.connect(self.export_current)
        # Named in retranslate(): Help > Keyboard shortcuts lists them (shortcuts_dialog.py).
        self._shortcuts = [
            QShortcut(QKeySequence("Ctrl+Return"), self, activated=self.play),
            QShortcut(QKeySequence(Qt.Key.Key_Escape), self, activated=self.stop),
            QShortcut(QKeySequence("Ctrl+S"), self, activated=self.export_current),
        ]
        QShortcut(QKeySequence("Ctrl+Enter"), self, activated=self.play)  # the keypad's Enter

        self.model.stateChanged.connect(self._on_model_state)
        self.doctor.reportReady.connect(self._on_doctor_report)
        self.doctor.failed.connect(self._load_if_waiting)
        s = self.speech
        s.started.connect(ui.show_speaking)
        s.fraction.connect(ui.show_fraction)
        s.bufferingChanged.connect(ui.show_buffering)
        s.finished.connect(self._on_finished)
        s.failed.connect(self._on_failed)
        s.stopped.connect(ui.show_stopped)
        s.busyChanged.connect(self._update_buttons)

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

    # -- what other code and tests read ---------------------------------------------------
    @property
    def model_status(self) -> ModelStatus | None:
        return self.model.status

    @property
    def output(self) -> AudioOutput:
        return self.speech.output

    @property
    def last_report(self):
        return self.doctor.report

    @property
    def download_dialog(self):
        return self.folders.download_dialog

    def model_dir(self) -> Path:
        return self.model.model_dir()

    def is_busy(self) -> bool:
        return self.speech.busy

    def can_export(self) -> bool:
        return not self.speech.busy and (
            self._last_result is not None or self.history_panel.selected_id() is not None
        )

    # -- start-up: the quick doctor checks, then the model on the device they recommend ----
    def start(self) -> None:
        self.ui.audio_banner.refresh()
        self.anywhere.apply()
        self._load_after_doctor = self.model.check_presence()
        if self._load_after_doctor:
            self.status.setText(self.tr("Checking this computer..."))
        self.doctor.run(quick=True)

    def _on_doctor_report(self, report, _quick: bool) -> None:
        self.model.use_recommendation(report)
        self._load_if_waiting()

    def _load_if_waiting(self, *_failure) -> None:
        """The start-up load waits for the quick checks, whatever they found."""
        if self._load_after_doctor:
            self._load_after_doctor = False
            self.model.load()

    def _on_model_state(self, state: ModelState) -> None:
        self.ui.show_model_state(state, self.model)
        self._update_buttons()

    # -- dialogs and menu actions -------------------------------------------------------------
    def open_doctor(self) -> None:
        self.doctor_dialog.show()
        self.doctor_dialog.raise_()
        if self.doctor.report is None:
            self.doctor_panel.start_running()

    def open_wizard(self) -> None:
        from app.ui.first_run_wizard import FirstRunWizard

        if self.wizard is None:
            self.wizard = FirstRunWizard(
                self.settings, self.model, self.doctor, self.speech, self.folders, self
            )
        self.wizard.restart()
        self.wizard.open()

    def open_download(self, import_from: str | None = None, parent=None):
        return self.folders.open_download(import_from, parent)

    def import_model_folder(self) -> None:
        self.folders.import_folder()

    def open_pronunciations(self) -> None:
        from app.ui.pronunciation_dialog import PronunciationDialog

        self.pronunciation_dialog = PronunciationDialog(parent=self)
        self.pronunciation_dialog.open()

    def set_language(self, code: str) -> None:
        self.settings.language = code
        self.menus.refresh()
        apply_language(code)

    def export_current(self) -> None:
        self.history_panel.export_selected()

    # -- text, voices, speaking ---------------------------------------------------------------
    def current_request(self) -> SynthesisRequest:
        reference, reference_text = self.voice_panel.reference() or (None, None)
        request = SynthesisRequest(
            text=self.text_panel.text(),
            seed=self.voice_panel.seed_value(),
            speaker=self.voice_panel.explicit_speaker(),
            reference=reference,
            reference_text=reference_text,
        )
        return self.params_panel.apply_to(request)

    def preview(self) -> None:
        """Show exactly what will be spoken (text_preview.py)."""
        self.text_preview.show()

    def play(self) -> None:
        self.start_request(self.current_request())

    def audition(self, voice) -> None:
        """The selected voice says a fixed sentence (not kept in history)."""
        self.start_request(
            SynthesisRequest(
                text=self.tr("Hello! This is how I sound."),
                seed=voice.seed or 0,
                speaker=voice.speaker or None,
                reference=voice.reference or None,
                reference_text=voice.reference_text if voice.reference else None,
                refine_text=False,
            ),
            audition=True,
        )

    def regenerate(self, entry_id: str) -> None:
        entry = self.history.get(entry_id)
        if entry is None:
            return
        try:
            request = entry.to_request()
        except StudioError as exc:
            self.status.setText(self.ui.error_text(exc))
            return
        self.text_panel.set_text(request.text)
        reference = (request.reference, request.reference_text or "") if request.reference else None
        self.voice_panel.set_voice(request.seed, request.speaker, reference)
        self.params_panel.load_request(request)
        self.play()

    def retake(self, entry_id: str) -> None:
        """Try another take of an entry: its text, voice and settings with the next seed, kept
        as a new entry; the editor and the voice and parameter panels are left as they are."""
        entry = self.history.get(entry_id)
        if entry is None or self.speech.busy:
            return
        try:
            request = another_take(entry)
        except StudioError as exc:
            self.status.setText(self.ui.error_text(exc))
            return
        self._retake = request
        self.start_request(request)

    def _check_selected(self) -> None:
        self.takes.check_saved(self.history_panel.selected_entry())

    def start_request(
        self,
        request: SynthesisRequest,
        audition: bool = False,
        text_offset: int = 0,
        shown_text: str | None = None,
    ) -> None:
        if self.speech.busy:
            return
        self.ui.show_result_warnings([])
        try:
            self.speech.start(request, audition, text_offset, shown_text)
        except (InputTextError, ParameterError) as exc:
            self.status.setText(self.ui.error_text(exc))
        except NotReady:
            self.status.setText(self.tr("The model is not loaded yet."))

    def stop(self) -> None:
        self.speech.stop()

    def _on_finished(self, request, result, audition: bool) -> None:
        retake, self._retake = self._retake is request, None
        if not audition:
            self._last_result = result
            if not retake:  # a retake's voice is the entry's, not the panel's seed's
                self.voice_panel.show_seed_speaker(result.speaker)
            entry = self.history.record(request, result, self.speech.made_by)
            if entry is not None:
                self.takes.check_result(entry, request, result)
        noise = not self.speech.made_by.makes_speech
        note = self.tr(" (test model: noise, not speech)") if noise else ""
        if result.warnings:
            note += "  ⚠ " + self.tr("%n warning(s), below", "", len(result.warnings))
        self.ui.show_result_warnings(result.warnings)
        self.status.setText(
            self.tr("%1 s of audio in %2 s on %3")
            .replace("%1", f"{result.duration:.1f}")
            .replace("%2", f"{result.synth_seconds:.1f}")
            .replace("%3", result.device)
            + note
        )
        self._update_buttons()

    def _on_failed(self, message: str) -> None:
        self.status.setText(message)
        if not self._closing:
            QMessageBox.warning(self, self.tr("Synthesis failed"), message)

    def _update_buttons(self, *_args) -> None:
        self.ui.update_buttons(
            self.model.state is ModelState.READY, self.speech.busy, self.can_export()
        )

    # -- language, closing ------------------------------------------------------------------
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("ChatTTS Studio"))
        self.menus.retranslate()
        self.ui.retranslate()
        for shortcut, label in zip(
            self._shortcuts,
            (self.tr("Play"), self.tr("Stop"), self.tr("Export WAV...")),
        ):
            shortcut.setWhatsThis(label)
        self.anywhere.retranslate()
        # The status line in the new language: what is going on now (a result's line gives way).
        if self.speech.busy:
            self.status.setText(self.ui.speaking_text())
        else:
            self.ui.show_model_state(self.model.state, self.model)

    def open_speech_server(self) -> None:
        from app.ui.server_dialog import SpeechServerDialog

        if self.server_dialog is None:
            self.server_dialog = SpeechServerDialog(self.speech_server, self.settings, self)
        self.server_dialog.show()
        self.server_dialog.raise_()
        self.server_dialog.activateWindow()

    def closeEvent(self, event):
        if self.anywhere.keeps_running():  # hidden to the tray, still reading
            event.ignore()
            return
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Saves the settings and stops every worker thread, once. closeEvent calls it; so
        does the self-test, because a window that was never really created gets no
        closeEvent, and threads alive at exit abort the process (issue 37)."""
        if self._closing:
            return
        self._closing = True
        self.save_settings()
        self.anywhere.shutdown()
        self.speech.output.stop()
        if self.wizard is not None:
            self.wizard.close()
        self.folders.close()
        self.doctor_dialog.close()
        if not self.narration.close():  # before the engine it renders with goes
            log.error("the narration thread did not stop in time")
        if self.server_dialog is not None:
            self.server_dialog.close()
        if not self.speech_server.shutdown():  # before the engine it speaks with goes
            log.error("the speech server did not stop in time")
        if not self.takes.shutdown():  # before the engine its checks run on goes
            log.error("the take check thread did not stop in time")
        if not self._synthesis.shutdown():
            log.error("the synthesis thread did not stop in time")
        self.history.close()  # after the last result it could record
        if not self.doctor.shutdown():
            log.error("the doctor thread did not stop in time")


def show_when_ready(window: MainWindow) -> None:
    """Show first, then start the checks and loading on the next turn of the event loop."""
    window.show()
    QTimer.singleShot(0, window.start)
    if not window.settings.first_run_done:
        QTimer.singleShot(0, window.open_wizard)
