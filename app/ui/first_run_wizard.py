"""First-run wizard: welcome, diagnostics, model folder, a test sentence, done.

It talks to the window's controllers (doctor, model, speech, model folders) rather than owning
copies, so what it shows is what the window will do; it follows their signals and states.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWizard, QWizardPage

from app.core import SamplingParams, SynthesisRequest
from app.i18n import again
from app.model import OFFICIAL_DOWNLOAD_GB
from app.ui.controllers import ModelState, NotReady
from app.ui.doctor_panel import DoctorPanel
from app.ui.retranslate import Retranslating


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
        self.text.setText(
            self.tr(
                "ChatTTS Studio turns text into natural speech on this computer. In the next steps it "
                "checks your computer, finds the model and speaks a test sentence."
            )
        )


class DiagnosticsPage(Retranslating, QWizardPage):
    def __init__(self, doctor):
        super().__init__()
        self.panel = DoctorPanel(doctor)
        self.panel.setObjectName("wizardDoctorPanel")
        QVBoxLayout(self).addWidget(self.panel)

    def initializePage(self):
        self.panel.start_running()

    def retranslate(self):
        self.setTitle(self.tr("Checking this computer"))
        self.setSubTitle(self.tr("Problems are listed with the exact steps to fix them."))


class ModelPage(Retranslating, QWizardPage):
    def __init__(self, model, folders):
        super().__init__()
        self.model = model
        self.folders = folders
        self.status = _label()
        self.status.setObjectName("wizardModelStatus")
        self.choose = QPushButton()
        self.choose.setObjectName("wizardChooseModel")
        self.choose.clicked.connect(lambda: folders.choose(parent=self.wizard()))
        self.download = QPushButton()
        self.download.setObjectName("wizardDownloadModel")
        self.download.clicked.connect(lambda: folders.open_download(parent=self.wizard()))
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.choose)
        layout.addWidget(self.download)
        layout.addStretch(1)
        model.stateChanged.connect(self.refresh)

    def initializePage(self):
        self.refresh()

    def refresh(self, *_args):
        m = self.model
        if m.state is ModelState.READY:
            text = (
                self.tr("Model ready: %1 in %2.")
                .replace("%1", m.status.kind)
                .replace("%2", m.status.root)
            )
        elif m.state is ModelState.FAILED:
            text = self.tr("The model could not be loaded: %1").replace("%1", m.error or "")
        elif m.state is ModelState.MISSING:
            text = self.tr(
                "No ChatTTS model in %1. Download it, or choose a folder that already holds the "
                "model's asset/ folder."
            ).replace("%1", m.missing_folder or "")
        else:
            text = self.tr("Loading the model from %1...").replace("%1", str(m.model_dir()))
        self.status.setText(text)

    def retranslate(self):
        self.setTitle(self.tr("The model"))
        self.setSubTitle(
            self.tr("ChatTTS needs its model files (about %1 GB) in one folder.").replace(
                "%1", f"{OFFICIAL_DOWNLOAD_GB:.1f}"
            )
        )
        self.choose.setText(self.tr("Choose folder..."))
        self.download.setText(self.tr("Download..."))
        self.refresh()


class TestPage(Retranslating, QWizardPage):
    def __init__(self, speech, model=None):
        super().__init__()
        self.speech = speech
        self.model = model  # says whether what was played is noise (a random-weight model)
        self._waiting = False  # Play was pressed while the model loaded: play once it is ready
        if model is not None:
            model.stateChanged.connect(self._on_model_state)
        self.play = QPushButton()
        self.play.setObjectName("wizardPlayTest")
        self.result = _label()
        self.result.setObjectName("wizardTestResult")
        layout = QVBoxLayout(self)
        layout.addWidget(self.play)
        layout.addWidget(self.result)
        layout.addStretch(1)
        self.play.clicked.connect(self.speak)
        speech.finished.connect(self._on_finished)
        speech.failed.connect(self.result.setText)

    def sentence(self) -> str:
        return self.tr("Hello! This is ChatTTS Studio speaking.")

    def speak(self):
        request = SynthesisRequest(
            self.sentence(), refine_text=False, sampling=SamplingParams(max_new_tokens=512)
        )
        try:
            started = self.speech.start(request)
        except NotReady:
            # "Not loaded yet" and then nothing left the button silent once the model was ready
            # (test_test_sentence_pressed_while_loading_plays_when_ready).
            self._waiting = True
            self.result.setText(
                self.tr(
                    "The model is still loading; the test sentence plays as soon as it is ready."
                )
            )
            return
        self._waiting = False
        if started:
            self.result.setText(
                self.tr("Making the test sentence; it cannot be heard without a sound device...")
                if self.speech.output_problem()
                else self.tr("Speaking...")
            )

    def _on_model_state(self, state) -> None:
        if not self._waiting:
            return
        if state is ModelState.READY:
            self.speak()
        elif state in (ModelState.FAILED, ModelState.MISSING):
            self._waiting = False
            self.result.setText(
                self.tr(
                    "The model could not be loaded, so the test sentence cannot be played; "
                    "go back a page to choose the model folder."
                )
            )

    def _on_finished(self, _request, result, _audition):
        """One sentence that says what happened, true with or without a sound device and a real
        model (test_wizard_downloads_the_model_through_its_own_dialog_then_speaks_without_a_sound_device)."""
        problem = self.speech.output_problem()
        noise = self.model is not None and self.model.makes_noise()
        if problem and noise:
            text = self.tr(
                "Made %1 s of noise in %2 s on %3 (a random-weight test model, not speech); it was not "
                "played: %4"
            )
        elif problem:
            text = self.tr("Made %1 s of audio in %2 s on %3, but it could not be played: %4")
        elif noise:
            text = self.tr(
                "Played %1 s of noise, made in %2 s on %3: this is a random-weight test model, so "
                "you heard noise, not speech."
            )
        else:
            text = self.tr("Played %1 s of audio, made in %2 s on %3.")
        self.result.setText(
            text.replace("%1", f"{result.duration:.1f}")
            .replace("%2", f"{result.synth_seconds:.1f}")
            .replace("%3", result.device)
            .replace("%4", again(problem or ""))
        )

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
        self.text.setText(
            self.tr(
                "You can open this guide again from Help > First-run wizard, and "
                "the diagnostics from Help > Diagnostics."
            )
        )


class FirstRunWizard(Retranslating, QWizard):
    def __init__(self, settings, model, doctor, speech, folders, parent=None):
        super().__init__(parent)
        self.setObjectName("firstRunWizard")
        self.settings = settings
        self.pages = [
            WelcomePage(),
            DiagnosticsPage(doctor),
            ModelPage(model, folders),
            TestPage(speech, model),
            DonePage(),
        ]
        for page in self.pages:
            self.addPage(page)
        self.finished.connect(self._done)
        self.resize(820, 560)
        self.retranslate()

    def _done(self, _result):
        self.settings.first_run_done = True
        self.settings.sync()

    def retranslate(self):
        self.setWindowTitle(self.tr("ChatTTS Studio setup"))
        for page in self.pages:
            page.retranslate()
