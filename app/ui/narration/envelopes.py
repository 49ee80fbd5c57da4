"""Chapter waveforms without freezing the window: each take's FLAC is decoded and reduced to its
envelope on a pool thread, once, and kept; the window draws what is ready and redraws when more
is (`ready`). A hundred four-second takes take seconds to decode on a busy machine.

The project opens a connection per operation, so reading takes here is safe beside the window
and the renderer.
"""

from __future__ import annotations

import logging

import numpy as np
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from app.core import StudioError
from app.ui.narration.waveform import CHAPTER_BLOCK, Waveform, envelope

log = logging.getLogger("chattts_studio.ui")
EMPTY = (np.zeros(0, np.float32), np.zeros(0, np.float32))


class _Relay(QObject):
    done = Signal(object, object)  # project, {take id: (mins, maxs)}


class _Job(QRunnable):
    def __init__(self, project, take_ids: list, relay: _Relay):
        super().__init__()
        self.project, self.take_ids, self.relay = project, take_ids, relay

    def run(self) -> None:
        found = {}
        for take_id in self.take_ids:
            try:
                found[take_id] = envelope(self.project.take_audio(take_id), CHAPTER_BLOCK)
            except StudioError as exc:  # a damaged take: drawn as nothing; playing it says why
                log.warning("take %s not drawn: %s", take_id, exc)
                found[take_id] = EMPTY
        self.relay.done.emit(self.project, found)


class EnvelopeCache(QObject):
    ready = Signal()  # more takes can be drawn

    def __init__(self, parent=None):
        super().__init__(parent)
        self.project = None
        self._envelopes: dict = {}
        self._asked: set = set()
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)

    def use(self, project) -> None:
        self.project = project
        self._envelopes.clear()
        self._asked.clear()

    def waveform(self, sentences) -> Waveform:
        """The chosen takes of these sentences whose envelopes are ready; the others are asked
        for and come with `ready`."""
        missing = [
            s.take_id
            for s in sentences
            if s.take_id is not None
            and s.take_id not in self._envelopes
            and s.take_id not in self._asked
        ]
        if missing and self.project is not None:
            self._asked.update(missing)
            self._pool.start(_Job(self.project, missing, self._relay))
        return Waveform.of_envelopes(
            [(s.id, self._envelopes[s.take_id]) for s in sentences if s.take_id in self._envelopes],
            block=CHAPTER_BLOCK,
        )

    def pending(self) -> bool:
        return bool(self._asked)

    def _on_done(self, project, found: dict) -> None:
        if project is not self.project:
            return
        self._envelopes.update(found)
        self._asked.difference_update(found)
        self.ready.emit()

    def shutdown(self, timeout_ms: int = 30_000) -> bool:
        self._pool.clear()
        return self._pool.waitForDone(timeout_ms)
