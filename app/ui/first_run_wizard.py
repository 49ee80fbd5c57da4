"""First-run wizard: welcome, diagnostics, model folder, a test sentence, done.

It drives the main window's own services (doctor thread, model loading, synthesis worker)
rather than owning copies, so what it shows is what the window will do.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWizard, QWizardPage

from app.ui.retranslate import Retranslating
from app.engine.request import SamplingParams, SynthesisRequest
from app.ui.doctor_panel import DoctorPanel


def _label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    return label


class WelcomePage(Retranslating, QWizardPage):
    def __init__(self):
        super().__init__()
        self.text = _label()
        QVBoxLayout(self).addWidget(self.text)

    def retranslate(self):
        self.setTitle(self.tr("Welcome to ChatTTS Studio"))
        self.text.setText(self.tr(
            "ChatTTS Studio turns text into natural speech on this computer. In the next steps it "
            "checks your computer, finds the model and speaks a test sentence."))


class DiagnosticsPage(Retranslating, QWizardPage):
    def __init__(self, window):
        super().__init__()
        self.window = window
        self.panel = DoctorPanel()
        self.panel.setObjectName("wizardDoctorPanel")
        QVBoxLayout(self).addWidget(self.panel)
        self.panel.rerunRequested.connect(lambda: window.run_doctor(quick=False))
        window.doctor.worker.finished.connect(self._on_report)

    def _on_report(self, report, _quick):
        self.panel.set_report(report)

    def initializePage(self):
        if self.window.last_report is not None:
            self.panel.set_report(self.window.last_report)
        self.panel.start_running()

    def retranslate(self):
        self.setTitle(self.tr("Checking this computer"))
        self.setSubTitle(self.tr("Problems are listed with the exact steps to fix them."))


class ModelPage(Retranslating, QWizardPage):
    def __init__(self, window):
        super().__init__()
        self.window = window
        self.status = _label()
        self.status.setObjectName("wizardModelStatus")
        self.choose = QPushButton()
        self.choose.setObjectName("wizardChooseModel")
        self.choose.clicked.connect(self.choose_folder)
        self.download = QPushButton()
        self.download.setObjectName("wizardDownloadModel")
        self.download.clicked.connect(self.open_download)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.choose)
        layout.addWidget(self.download)
        layout.addStretch(1)
        self._load_error: str | None = None
        # Slots of this page, not lambdas: a lambda would run on the worker's thread at once,
        # before the window has taken the news in, and show the state before it.
        worker = window.worker.worker
        worker.loadStarted.connect(self.on_load_started)
        worker.loaded.connect(self.on_loaded)
        worker.loadFailed.connect(self.on_load_failed)

    @Slot()
    def choose_folder(self):
        self.window.choose_model_folder(parent=self.wizard())

    @Slot()
    def open_download(self):
        self.window.open_download(parent=self.wizard())

    @Slot(str)
    def on_load_started(self, _folder):
        self._load_error = None
        self.refresh()

    @Slot(object)
    def on_loaded(self, _status):
        self._load_error = None
        self.refresh()

    @Slot(str)
    def on_load_failed(self, message):
        self._load_error = message
        self.refresh()

    def initializePage(self):
        self.refresh()

    def refresh(self):
        w = self.window
        if w.model_status is not None:
            text = self.tr("Model ready: %1 in %2.").replace("%1", w.model_status.kind).replace("%2", w.model_status.root)
        elif self._load_error:
            text = self.tr("The model could not be loaded: %1").replace("%1", self._load_error)
        elif w.model_banner.text():
            text = w.model_banner.text()
        else:
            text = self.tr("Loading the model from %1...").replace("%1", str(w.model_dir()))
        self.status.setText(text)

    def retranslate(self):
        self.setTitle(self.tr("The model"))
        self.setSubTitle(self.tr("ChatTTS needs its model files (about 1.1 GB) in one folder."))
        self.choose.setText(self.tr("Choose folder..."))
        self.download.setText(self.tr("Download..."))
        self.refresh()


class TestPage(Retranslating, QWizardPage):
    def __init__(self, window):
        super().__init__()
        self.window = window
        self.play = QPushButton()
        self.play.setObjectName("wizardPlayTest")
        self.result = _label()
        self.result.setObjectName("wizardTestResult")
        layout = QVBoxLayout(self)
        layout.addWidget(self.play)
        layout.addWidget(self.result)
        layout.addStretch(1)
        self.play.clicked.connect(self.speak)
        window.worker.worker.finished.connect(self._on_finished)
        window.worker.worker.failed.connect(self._on_failed)

    def sentence(self) -> str:
        return self.tr("Hello! This is ChatTTS Studio speaking.")

    def speak(self):
        if self.window.model_status is None:
            self.result.setText(self.tr("The model is not loaded yet."))
            return
        self.result.setText(self.tr("Speaking..."))
        self.window.start_request(SynthesisRequest(self.sentence(), refine_text=False,
                                                   sampling=SamplingParams(max_new_tokens=512)))

    @Slot(int, str)
    def _on_failed(self, _job_id, message):
        self.result.setText(message)

    @Slot(int, object)
    def _on_finished(self, _job_id, result):
        if self.window.output.problem:
            text = self.tr("Made %1 s of audio in %2 s on %3, but it could not be played: %4").replace(
                "%1", f"{result.duration:.1f}").replace("%2", f"{result.synth_seconds:.1f}").replace(
                "%3", result.device).replace("%4", self.window.output.problem)
        else:
            text = self.tr("Played %1 s of audio, made in %2 s on %3.").replace(
                "%1", f"{result.duration:.1f}").replace("%2", f"{result.synth_seconds:.1f}").replace(
                "%3", result.device)
        if result.test_model:
            text += " " + self.tr("This is a random-weight test model, so you heard noise, not speech.")
        self.result.setText(text)

    def retranslate(self):
        self.setTitle(self.tr("A test sentence"))
        self.play.setText(self.tr("Play the test sentence"))


class DonePage(Retranslating, QWizardPage):
    def __init__(self):
        super().__init__()
        self.text = _label()
        QVBoxLayout(self).addWidget(self.text)

    def retranslate(self):
        self.setTitle(self.tr("All set"))
        self.text.setText(self.tr("You can open this guide again from Help > First-run wizard, and "
                                  "the diagnostics from Help > Diagnostics."))


class FirstRunWizard(Retranslating, QWizard):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("firstRunWizard")
        self.window_ = window
        self.pages = [WelcomePage(), DiagnosticsPage(window), ModelPage(window), TestPage(window), DonePage()]
        for page in self.pages:
            self.addPage(page)
        self.finished.connect(self._done)
        self.resize(820, 560)
        self.retranslate()

    def _done(self, _result):
        self.window_.settings.first_run_done = True
        self.window_.settings.sync()

    def retranslate(self):
        self.setWindowTitle(self.tr("ChatTTS Studio setup"))
        for page in self.pages:
            page.retranslate()
