"""The window's banners, each following one controller: the model (missing, failed, a test
model), the doctor's problems, the sound output, the user's library. Each says its message
again in the new language when the language changes."""

from __future__ import annotations

from PySide6.QtCore import Signal

from app.i18n import again
from app.library import WHOLE_FILE, NoticeKind
from app.ui.banner import Banner
from app.ui.controllers.model import ModelState
from app.ui.retranslate import Retranslating


class ModelBanner(Retranslating, Banner):
    chooseRequested = Signal()
    downloadRequested = Signal()

    def __init__(self, model, parent=None):
        super().__init__("modelBanner", parent)
        self._model = model
        self._dismisses = False  # the button dismisses a device notice instead of choosing
        self.button.clicked.connect(self._on_button)
        self.button2.clicked.connect(self.downloadRequested)
        model.stateChanged.connect(self.refresh)
        model.deviceNoticeChanged.connect(self.refresh)

    def _on_button(self) -> None:
        if self._dismisses:
            self._model.dismiss_device_notice()
        else:
            self.chooseRequested.emit()

    def _device_name(self, device: str) -> str:
        if device.startswith("cuda"):
            return self.tr("the NVIDIA GPU")
        if device.startswith("cpu"):
            return self.tr("the CPU")
        return device

    def device_notice_text(self, notice) -> str:
        """A device that cannot run: where the model runs instead, then the reason."""
        if notice.at_start:
            text = self.tr("The model runs on %1: your saved device, %2, cannot be used.")
        else:
            text = self.tr(
                "The model stays on %1: %2 cannot be used, and it was not saved as your choice."
            )
        running = (
            self._device_name(notice.running)
            if notice.running
            else self.tr("the device that worked")
        )
        return (
            text.replace("%1", running).replace("%2", self._device_name(notice.asked))
            + " "
            + notice.reason
        )

    def refresh(self, *_args) -> None:
        m = self._model
        choose, download = self.tr("Choose folder..."), self.tr("Download...")
        self._dismisses = False
        if m.state not in (ModelState.MISSING, ModelState.FAILED) and m.device_notice is not None:
            self._dismisses = True
            self.show_message(
                self.device_notice_text(m.device_notice), "warning", self.tr("Dismiss")
            )
        elif m.state is ModelState.MISSING:
            self.show_message(
                self.tr(
                    "No ChatTTS model in %1. Download it, or choose a folder that already holds the "
                    "model's asset/ folder."
                ).replace("%1", m.missing_folder or ""),
                "warning",
                choose,
                download,
            )
        elif m.state is ModelState.FAILED:
            self.show_message(m.error or "", "error", choose, download)
        elif m.makes_noise():
            self.show_message(
                self.tr(
                    "This is a random-weight test model: it makes noise, not speech. Choose the "
                    "official ChatTTS model folder to hear real speech."
                ),
                "warning",
                choose,
            )
        else:
            self.hide()

    def retranslate(self) -> None:
        self.refresh()


class DoctorBanner(Retranslating, Banner):
    """The first failed check that affects synthesis, quoted from the doctor's report."""

    openRequested = Signal()

    def __init__(self, doctor, parent=None):
        super().__init__("doctorBanner", parent)
        self._doctor = doctor
        self.button.clicked.connect(self.openRequested)
        doctor.reportReady.connect(self.refresh)

    def refresh(self, *_args) -> None:
        problems = self._doctor.problems()
        if problems:
            self.show_message(problems[0].summary, "error", self.tr("Open diagnostics"))
        else:
            self.hide()

    def retranslate(self) -> None:
        self._doctor.follow_language()
        self.refresh()


class AudioBanner(Retranslating, Banner):
    """Why nothing can be heard; dismissable, since Export still works."""

    def __init__(self, speech, parent=None):
        super().__init__("audioBanner", parent)
        self._speech = speech
        self.button.clicked.connect(self.hide)
        speech.outputChanged.connect(self.refresh)

    def refresh(self) -> None:
        problem = self._speech.output_problem()
        if problem:
            self.show_message(again(problem), "info", self.tr("Dismiss"))
        else:
            self.hide()

    def retranslate(self) -> None:
        if not self.isHidden():  # a dismissed banner stays dismissed
            self.refresh()


class LibraryBanner(Retranslating, Banner):
    """What happened to the library when it was opened, or a result that could not be kept."""

    MAX_LINES = 5

    def __init__(self, history, parent=None):
        super().__init__("libraryBanner", parent)
        self._history = history
        self._not_saved: str | None = None
        self.button.clicked.connect(self._dismiss)
        history.notSaved.connect(self.show_not_saved)
        self.show_notices()

    def _dismiss(self) -> None:
        self._not_saved = None
        self.hide()

    def notice_text(self, notice) -> str:
        args = list(notice.args)
        if notice.kind is NoticeKind.SKIPPED and len(args) == 2 and args[1] == WHOLE_FILE:
            return self.tr(
                "%1 could not be read; it was kept as it is and the rest was loaded."
            ).replace("%1", args[0])
        if notice.kind is NoticeKind.SKIPPED and len(args) == 2:
            return (
                self.tr(
                    "%1: a record was skipped because its field \u201c%2\u201d is not valid; the "
                    "rest was loaded."
                )
                .replace("%1", args[0])
                .replace("%2", args[1])
            )
        if notice.kind is NoticeKind.RESTORED and len(args) == 2:
            return (
                self.tr(
                    "Your library was damaged: it was set aside as %1 and the backup %2 was "
                    "restored; results since that backup may be missing."
                )
                .replace("%1", args[0])
                .replace("%2", args[1])
            )
        if notice.kind is NoticeKind.DAMAGED_NO_BACKUP and args:
            return self.tr(
                "Your library was damaged and no backup could be used: it was set aside as %1 "
                "and a new library was started."
            ).replace("%1", args[0])
        if notice.kind is NoticeKind.EMPTY_RESTORED and len(args) == 2:
            return (
                self.tr(
                    "Your library was empty although its backups hold your data: the empty file was "
                    "set aside as %1 and the backup %2 was restored; results since that backup may "
                    "be missing."
                )
                .replace("%1", args[0])
                .replace("%2", args[1])
            )
        if notice.kind is NoticeKind.MISSING_RESTORED and len(args) == 2:
            return (
                self.tr(
                    "Your library %1 was missing: the backup %2 was restored; results since that "
                    "backup may be missing."
                )
                .replace("%1", args[0])
                .replace("%2", args[1])
            )
        if notice.kind is NoticeKind.IMPORTED and len(args) == 2:
            return (
                self.tr("Imported %1 into the library; the original is kept as %2.")
                .replace("%1", args[0])
                .replace("%2", args[1])
            )
        return notice.message

    def show_notices(self) -> None:
        lines = []
        if self._history.problem:
            lines.append(
                self.tr("Your history and voices cannot be saved this session: %1").replace(
                    "%1", self._history.problem
                )
            )
        lines += [self.notice_text(n) for n in self._history.notices()]
        if not lines:
            self.hide()
            return
        shown = lines[: self.MAX_LINES]
        if len(lines) > self.MAX_LINES:
            shown.append(
                self.tr("... and %1 more (see the log).").replace(
                    "%1", str(len(lines) - self.MAX_LINES)
                )
            )
        self.show_message("\n".join(shown), "warning", self.tr("Dismiss"))

    def show_not_saved(self, reason: str) -> None:
        """The audio was still played and can be exported."""
        self._not_saved = reason
        self.show_message(
            self.tr("This result could not be saved to the history: %1").replace("%1", reason),
            "error",
            self.tr("Dismiss"),
        )

    def retranslate(self) -> None:
        if self.isHidden():
            return
        if self._not_saved is not None:
            self.show_not_saved(self._not_saved)
        else:
            self.show_notices()
