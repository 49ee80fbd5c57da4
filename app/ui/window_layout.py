"""The main window's widgets and layout, and what its status line, progress bar and buttons
show for each state. Panels and banners get the controllers they follow; the window wires
the rest (app/ui/main_window.py)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import ParameterError
from app.decode import Precision
from app.i18n import again, join_sentences
from app.ui.banners import AudioBanner, DoctorBanner, LibraryBanner, ModelBanner
from app.ui.controllers.model import ModelState
from app.ui.doctor_panel import DoctorPanel
from app.ui.history_panel import HistoryPanel
from app.ui.params_panel import ParamsPanel
from app.ui.text_panel import TextPanel
from app.ui.voice_panel import VoicePanel


def _button(name: str) -> QPushButton:
    button = QPushButton()
    button.setObjectName(name)
    return button


class WindowLayout(QObject):
    # The widgets the window exposes as its own attributes (tests and the window use them).
    WIDGETS = (
        "model_banner",
        "doctor_banner",
        "audio_banner",
        "library_banner",
        "doctor_panel",
        "text_panel",
        "voice_panel",
        "params_panel",
        "history_panel",
        "play_button",
        "stop_button",
        "pause_button",
        "export_button",
        "progress",
        "status",
        "result_warnings",
        "tabs",
    )

    def __init__(self, window, model, speech, history, doctor, settings):
        super().__init__(window)
        self._speech = speech
        self.model_banner = ModelBanner(model)
        self.doctor_banner = DoctorBanner(doctor)
        self.audio_banner = AudioBanner(speech)
        self.library_banner = LibraryBanner(history)
        self.doctor_panel = DoctorPanel(doctor)
        self.text_panel = TextPanel()
        self.voice_panel = VoicePanel(history.voices, speech)
        self.params_panel = ParamsPanel()
        self.history_panel = HistoryPanel(history, speech, settings)
        self.play_button = _button("playButton")
        self.stop_button = _button("stopButton")
        self.pause_button = _button("pauseButton")
        self.pause_button.setEnabled(False)  # until something plays (read_along.py)
        self.export_button = _button("exportButton")
        self.progress = QProgressBar()
        self.progress.setObjectName("progressBar")
        self.progress.setTextVisible(True)
        self.status = QLabel()
        self.status.setObjectName("statusLabel")
        window.statusBar().addWidget(self.status, 1)
        # Every warning of the last result, one row each, never wrapped (a wrap broke "--no-refine"
        # mid-word) and at most WARNING_ROWS rows high, so the text box keeps its room; the whole
        # sentence is in the row's tooltip (test_warnings_take_one_row_each_and_leave_the_text_box_its_room).
        self.result_warnings = QListWidget()
        self.result_warnings.setObjectName("resultWarnings")
        self.result_warnings.setWordWrap(False)
        self.result_warnings.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.result_warnings.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.result_warnings.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.result_warnings.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.copy_warnings = QAction(self.result_warnings)  # the rows cannot be selected
        self.copy_warnings.triggered.connect(
            lambda: QGuiApplication.clipboard().setText("\n".join(again(w) for w in self._warnings))
        )
        self.result_warnings.addAction(self.copy_warnings)
        self.result_warnings.hide()
        self._warnings: list[str] = []

        controls = QHBoxLayout()
        for button in (self.play_button, self.pause_button, self.stop_button, self.export_button):
            controls.addWidget(button)
        controls.addWidget(self.progress, 1)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        for banner in (
            self.model_banner,
            self.doctor_banner,
            self.audio_banner,
            self.library_banner,
        ):
            left_layout.addWidget(banner)
        left_layout.addWidget(self.text_panel, 1)
        left_layout.addLayout(controls)
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
        window.setCentralWidget(splitter)

    # -- states ------------------------------------------------------------------------------
    def show_model_state(self, state: ModelState, model) -> None:
        if state is ModelState.LOADING:
            self.status.setText(self.tr("Loading the model..."))
            self.progress.setRange(0, 0)
        elif state is ModelState.READY:
            self._idle_progress()
            self.status.setText(self.ready_text(model.status))
        elif state is ModelState.FAILED:
            self.progress.setRange(0, 1)
            self.status.setText(self.tr("The model could not be loaded"))
        elif state is ModelState.MISSING:
            self.status.setText(self.tr("No model"))

    def ready_text(self, s) -> str:
        """Whole sentences, joined as the language joins them (Chinese with no space)
        (test_the_ready_line_is_whole_sentences)."""
        parts = [
            self.tr("Ready: %1 on %2, %3 (loaded in %4 s).")
            .replace("%1", s.kind)
            .replace("%2", s.device)
            .replace("%3", s.decode)
            .replace("%4", f"{s.load_seconds:.1f}")
        ]
        if s.precision_asked not in ("", Precision.AUTO, s.precision):
            parts.append(
                self.tr("Precision %1 is not available on this device, so %2 runs.")
                .replace("%1", s.precision_asked)
                .replace("%2", s.precision)
            )
        if s.precision == Precision.INT8:
            parts.append(
                self.tr(
                    "int8 is the fast choice on a CPU; for exact numbers choose "
                    "Model > Precision: fp32."
                )
            )
        return join_sentences(parts)

    def show_speaking(self) -> None:
        self.progress.setRange(0, 0)
        self.status.setText(self.speaking_text())

    def speaking_text(self) -> str:
        """Not "Speaking..." when nothing can be heard (test_no_device_status_does_not_say_speaking)."""
        if self._speech.output_problem():
            return self.tr(
                "Making the audio (no sound device, so it is not played; Export WAV works)..."
            )
        return self.tr("Speaking...")

    PROGRESS_STEPS = 1000

    def show_fraction(self, fraction: float) -> None:
        """Called for every piece of audio, so it touches the bar only when it changes."""
        if self.progress.maximum() != self.PROGRESS_STEPS:
            self.progress.setRange(0, self.PROGRESS_STEPS)
        value = round(fraction * self.PROGRESS_STEPS)
        if value != self.progress.value():
            self.progress.setValue(value)

    def show_buffering(self, waiting: bool) -> None:
        """Playback waits, between sentences or in a pause, for the rest to be made, rather than
        breaking a word; the status line says so, and says "Speaking..." again when it resumes."""
        buffering = self.tr("Buffering: waiting for the rest of the speech to be ready...")
        if waiting:
            self.status.setText(buffering)
        elif self.status.text() == buffering:
            self.status.setText(self.speaking_text())

    def show_stopped(self) -> None:
        self._idle_progress()
        self.status.setText(self.tr("Stopped."))

    WARNING_ROWS = 3

    def show_result_warnings(self, warnings: list[str]) -> None:
        self._warnings = list(warnings)
        box = self.result_warnings
        box.clear()
        for warning in warnings:
            text = again(warning)
            item = QListWidgetItem(f"⚠ {text}")
            item.setToolTip(text)
            box.addItem(item)
        rows = min(len(warnings), self.WARNING_ROWS)
        if rows:
            box.setFixedHeight(rows * box.sizeHintForRow(0) + 2 * box.frameWidth())
        box.setVisible(bool(warnings))

    def _idle_progress(self) -> None:
        self.progress.setRange(0, 1)
        self.progress.setValue(0)

    def update_buttons(self, ready: bool, busy: bool, can_export: bool) -> None:
        self.play_button.setEnabled(ready and not busy)
        self.stop_button.setEnabled(busy)
        self.export_button.setEnabled(can_export)
        if not busy and self.progress.maximum() == 0 and ready:
            self.progress.setRange(0, 1)

    def show_paused(self, paused: bool) -> None:
        self.pause_button.setText(self.tr("Resume") if paused else self.tr("Pause"))
        self.pause_button.setToolTip(
            self.tr("Go on from where it paused (Space)")
            if paused
            else self.tr("Pause what is playing (Space)")
        )

    def error_text(self, exc: Exception) -> str:
        """A refused request in the window's language (a ParameterError names the option)."""
        if not isinstance(exc, ParameterError):
            return str(exc)
        if exc.low_open and exc.high is None:
            text = self.tr("%1 must be greater than %2; change it in the Parameters tab.")
        elif exc.low_open:
            text = self.tr(
                "%1 must be greater than %2 and at most %3; change it in the Parameters tab."
            )
        elif exc.high is None:
            text = self.tr("%1 must be at least %2; change it in the Parameters tab.")
        else:
            text = self.tr("%1 must be between %2 and %3; change it in the Parameters tab.")
        return (
            text.replace("%1", exc.option).replace("%2", str(exc.low)).replace("%3", str(exc.high))
        )

    def retranslate(self) -> None:
        self.show_result_warnings(self._warnings)
        self.copy_warnings.setText(self.tr("Copy the warnings"))
        self.play_button.setText(self.tr("Play"))
        self.play_button.setToolTip(self.tr("Speak the text (Ctrl+Enter)"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop speaking (Esc)"))
        self.show_paused(self._speech.reading.paused)
        self.export_button.setText(self.tr("Export WAV..."))
        self.export_button.setToolTip(self.tr("Save the selected result as a WAV file (Ctrl+S)"))
        self.tabs.setTabText(0, self.tr("Voice"))
        self.tabs.setTabText(1, self.tr("Parameters"))
        self.tabs.setTabText(2, self.tr("History"))
