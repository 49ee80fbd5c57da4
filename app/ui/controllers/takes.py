"""Whether the window's takes are usable: each new result, and each saved one never checked,
goes to the take checker off the GUI thread; what it finds is kept with the history entry.

Where the checker's models are missing (a trimmed install) `notChecked` says so once.
"Try another take" is the same request with the next seed and the voice it was made in.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal, Slot

from app.core import SEED_MAX, StudioError, SynthesisRequest
from app.i18n import again
from app.library import HistoryEntry, TakeCheck
from app.workers.take_check_worker import TakeCheckThread, TakeToCheck

log = logging.getLogger("chattts_studio.ui")


def another_take(entry: HistoryEntry) -> SynthesisRequest:
    """The entry's request with the next seed and the same voice: a seed that chose the voice
    gives way to the speaker string it made. Raises InputTextError or ParameterError."""
    request = entry.to_request()
    if request.speaker is None and request.reference is None and entry.speaker:
        request.speaker = entry.speaker
    request.seed = (request.seed + 1) % (SEED_MAX + 1)
    return request


class TakeCheckController(QObject):
    checked = Signal(str)  # the entry whose check is now kept
    # For the status line: takes are not checked (said once), or the user's take was not.
    notChecked = Signal(str)

    def __init__(self, history, engine_of=None, parent=None):
        """`history`: the HistoryController; `engine_of`: gives the loaded engine or None."""
        super().__init__(parent)
        self._history = history
        self._asked: set[str] = set()
        self._played: set[str] = set()  # asked for a result the user just made
        self._said_missing = False
        self._engine_of = engine_of or (lambda: None)
        self._thread = TakeCheckThread(self._engine_of, parent=self)
        self._thread.worker.checked.connect(self._on_checked)
        self._thread.worker.failed.connect(self._on_failed)

    def check_result(self, entry: HistoryEntry, request: SynthesisRequest, result) -> None:
        """Check a result just kept as `entry` (its audio is at hand)."""
        self._played.add(entry.id)
        self._ask(
            TakeToCheck(
                entry.id,
                entry.text,
                result.speaker or "",
                request.speed,
                audio=result.audio,
                sample_rate=result.sample_rate,
            ),
        )

    def check_saved(self, entry: HistoryEntry | None) -> None:
        """Check a saved entry that never was, or was while the checker's models were missing
        (its WAV is read on the worker's thread); only while the model is loaded, so that the
        check runs on the engine's thread."""
        if entry is None or entry.id in self._asked:
            return
        if entry.take_check is not None and entry.take_check.checked:
            return
        if self._engine_of() is None:
            return
        try:
            request = entry.to_request()
        except StudioError:
            return
        path = str(self._history.wav_path(entry))
        self._ask(TakeToCheck(entry.id, entry.text, entry.speaker, request.speed, wav_path=path))

    def _ask(self, take: TakeToCheck) -> None:
        self._asked.add(take.entry_id)
        self._thread.request.emit(take)

    def shutdown(self) -> bool:
        return self._thread.shutdown()

    @Slot(str)
    def _on_failed(self, entry_id: str) -> None:
        """A take that could not be checked may be asked again; the user is told only about
        the result they just made (a saved entry's check is background work)."""
        self._asked.discard(entry_id)
        log.info("the take of history entry %s was not checked", entry_id)
        if entry_id in self._played:
            self._played.discard(entry_id)
            self.notChecked.emit(self.tr("This take could not be checked; see the log for why."))

    @Slot(str, object)
    def _on_checked(self, entry_id: str, report) -> None:
        self._played.discard(entry_id)
        if not report.checked and report.note and not self._said_missing:
            self._said_missing = True
            self.notChecked.emit(str(again(report.note)))
        if self._history.set_take_check(entry_id, TakeCheck.of(report)):
            self.checked.emit(entry_id)
