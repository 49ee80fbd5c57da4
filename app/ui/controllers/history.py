"""The user's library: history of results and saved voices, opened once for the session.

A library that cannot be opened does not stop the window: history and voices then live in a
temporary folder for this session, removed when the window closes, and `problem` says why.
Notices (records skipped, a damaged file set aside) carry a kind and their arguments; the
window words them.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from app.audio import write_wav
from app.core import StudioError
from app.library import HistoryStore, Library, NoticeKind, VoiceLibrary

log = logging.getLogger("chattts_studio.ui")


def open_library(history: HistoryStore | None = None, voices: VoiceLibrary | None = None):
    """(history, voices, the problem or None, the temporary folder used instead or None)."""
    try:
        history = history or HistoryStore()
        voices = voices or VoiceLibrary(history.library)
        return history, voices, None, None
    except StudioError as exc:
        log.error("library not opened: %s", exc)
        scratch = Path(tempfile.mkdtemp(prefix="chattts-studio-library-"))
        fallback = Library(scratch)
        return (
            history or HistoryStore(fallback),
            voices or VoiceLibrary(fallback),
            str(exc),
            scratch,
        )


class HistoryController(QObject):
    changed = Signal()  # entries were added or deleted
    added = Signal(str)  # the new entry's id
    notSaved = Signal(str)  # a result was heard but could not be kept: the reason
    takeChecked = Signal(str, object)  # an entry's id and the TakeCheck now kept with it

    def __init__(
        self, history: HistoryStore | None = None, voices: VoiceLibrary | None = None, parent=None
    ):
        super().__init__(parent)
        self._store, self.voices, self.problem, self._scratch = open_library(history, voices)

    def close(self) -> None:
        """Remove the temporary library a session used because the user's could not be opened:
        the banner said nothing of this session would be kept, and each such launch left one
        in the temporary folder."""
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    def notices(self) -> list:
        """What happened to the library while it was opened (imports are not news)."""
        return [n for n in self._store.library.notices if n.kind is not NoticeKind.IMPORTED]

    def entries(self):
        return self._store.entries()

    def get(self, entry_id: str):
        return self._store.get(entry_id)

    def audio(self, entry):
        return self._store.audio(entry)

    def record(self, request, result, model_kind):
        """Keep a result of a `model_kind` model; None (and notSaved) when it cannot be written."""
        try:
            entry = self._store.add(request, result, model_kind)
        except (OSError, StudioError) as exc:
            log.warning("history not saved: %s", exc)
            self.notSaved.emit(str(exc))
            return None
        self.changed.emit()
        self.added.emit(entry.id)
        return entry

    def wav_path(self, entry) -> Path:
        return self._store.wav_path(entry)

    def set_take_check(self, entry_id: str, check) -> bool:
        """Keep a take check with its entry (and show it); False where it could not be kept."""
        try:
            kept = self._store.set_take_check(entry_id, check)
        except StudioError as exc:
            log.warning("take check not saved: %s", exc)
            return False
        if kept:
            self.takeChecked.emit(entry_id, check)
        return kept

    def delete(self, entry_id: str) -> None:
        self._store.delete(entry_id)
        self.changed.emit()

    def export_to(self, entry_id: str, path: str) -> Path:
        """Write the entry's audio as a WAV; raises OutputError or OSError with the reason."""
        audio, rate = self._store.audio(self._store.get(entry_id))
        write_wav(path, audio, rate)
        return Path(path)
