"""The main window's side of the user's library: open it, say what happened to it.

A mixin of MainWindow. The engine's notices carry a kind and their arguments; the sentences
the user reads are made here, through the window's translation. A library that cannot be
opened at all does not stop the window: history and voices then live in a temporary folder
for this session, and the banner says so.
"""

from __future__ import annotations

import logging
import tempfile

from app.engine.errors import StudioError
from app.engine.library import HistoryStore, Library, VoiceLibrary

log = logging.getLogger("chattts_studio.ui")


class LibraryActions:
    def _open_library(self, history: HistoryStore | None, voices: VoiceLibrary | None):
        """(history, voices, the library problem or None)."""
        try:
            history = history or HistoryStore()
            voices = voices or VoiceLibrary(history.library)
            return history, voices, None
        except StudioError as exc:
            log.error("library not opened: %s", exc)
            fallback = Library(tempfile.mkdtemp(prefix="chattts-studio-library-"))
            return history or HistoryStore(fallback), voices or VoiceLibrary(fallback), str(exc)

    def _notice_text(self, notice) -> str:
        args = list(notice.args)
        if notice.kind == "skipped" and len(args) == 2 and args[1] == "(the whole file)":
            return self.tr("%1 could not be read; it was kept as it is and the rest was loaded.").replace(
                "%1", args[0])
        if notice.kind == "skipped" and len(args) == 2:
            return self.tr("%1: a record was skipped because its field \u201c%2\u201d is not valid; the "
                           "rest was loaded.").replace("%1", args[0]).replace("%2", args[1])
        if notice.kind == "restored" and len(args) == 2:
            return self.tr("Your library was damaged: it was set aside as %1 and the backup %2 was "
                           "restored; results since that backup may be missing.").replace(
                "%1", args[0]).replace("%2", args[1])
        if notice.kind == "damaged_no_backup" and args:
            return self.tr("Your library was damaged and no backup could be used: it was set aside as %1 "
                           "and a new library was started.").replace("%1", args[0])
        if notice.kind == "imported" and len(args) == 2:
            return self.tr("Imported %1 into the library; the original is kept as %2.").replace(
                "%1", args[0]).replace("%2", args[1])
        return notice.message

    def show_library_notices(self) -> None:
        lines = []
        if self._library_problem:
            lines.append(self.tr("Your history and voices cannot be saved this session: %1").replace(
                "%1", self._library_problem))
        notices = self.history.library.notices
        lines += [self._notice_text(n) for n in notices if n.kind != "imported"]
        if not lines:
            self.library_banner.hide()
            return
        shown = lines[:5]
        if len(lines) > 5:
            shown.append(self.tr("... and %1 more (see the log).").replace("%1", str(len(lines) - 5)))
        self.library_banner.show_message("\n".join(shown), "warning", self.tr("Dismiss"))

    def history_not_saved(self, exc: Exception) -> None:
        """A result could not be kept: say so (the audio was still played and can be exported)."""
        log.warning("history not saved: %s", exc)
        self.library_banner.show_message(
            self.tr("This result could not be saved to the history: %1").replace("%1", str(exc)),
            "error", self.tr("Dismiss"))

    def parameter_error_text(self, exc) -> str:
        """A ParameterError in the window's language (the option names stay as they are)."""
        if exc.low_open and exc.high is None:
            text = self.tr("%1 must be greater than %2; change it in the Parameters tab.")
        elif exc.low_open:
            text = self.tr("%1 must be greater than %2 and at most %3; change it in the Parameters tab.")
        elif exc.high is None:
            text = self.tr("%1 must be at least %2; change it in the Parameters tab.")
        else:
            text = self.tr("%1 must be between %2 and %3; change it in the Parameters tab.")
        return text.replace("%1", exc.option).replace("%2", str(exc.low)).replace("%3", str(exc.high))
