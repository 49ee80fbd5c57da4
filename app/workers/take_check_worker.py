"""Checks the window's takes off the GUI thread (app.audio's take checker).

The checker's models load on first use, so never on the GUI thread. Where the window's engine
is loaded the check runs on its thread, between batches (`Engine.call`): PyTorch keeps a
thread pool per thread that ran its kernels, and one more such thread beside the engine slows
decoding (ARCHITECTURE.md, `Engine.loading`). Without an engine it runs on this worker's own.
The speaking rate is learnt from this session's clean takes of the same voice and speed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal, Slot

from app.workers.threads import OwnedThread

log = logging.getLogger("chattts_studio.worker")

LEARN_FROM = 3  # clean takes of a voice before its own rate replaces the default
KEEP_TAKES = 20  # per voice: the most recent clean takes the rate is learnt from
CALL_TIMEOUT_S = 300.0  # the engine serves calls between batches; a longer wait gives up


@dataclass(frozen=True)
class TakeToCheck:
    """A history entry's take: its audio (or the WAV it was saved as), text and voice."""

    entry_id: str
    text: str
    voice: str  # the speaker string, so takes of one voice teach its rate
    speed: int
    audio: np.ndarray | None = None
    sample_rate: int = 0
    wav_path: str = ""


class TakeCheckWorker(QObject):
    checked = Signal(str, object)  # entry id, TakeReport
    failed = Signal(str)  # entry id: its audio could not be read or checked

    def __init__(self, engine_of=None):
        """`engine_of`: a callable giving the loaded engine or None."""
        super().__init__()
        self._engine_of = engine_of or (lambda: None)
        self._clean: dict[tuple[str, str, int], list[tuple[str, float]]] = defaultdict(list)

    @Slot(object)
    def check(self, take: TakeToCheck) -> None:
        from app.audio import guess_language

        try:
            audio, rate = self._audio(take)
            language = guess_language([take.text])
            key = (take.voice, language, take.speed)
            learnt = self._learnt(key, language)  # here: `_clean` is this thread's alone
            report = self._run(lambda: _judge(audio, rate, take.text, language, learnt))
        except Exception:  # a check must never take the window down
            log.exception("the take of history entry %s was not checked", take.entry_id)
            self.failed.emit(take.entry_id)
            return
        if report.checked and not report.flagged:
            kept = self._clean[key]
            kept.append((take.text, report.speech_seconds))
            del kept[:-KEEP_TAKES]
        self.checked.emit(take.entry_id, report)

    @staticmethod
    def _audio(take: TakeToCheck) -> tuple[np.ndarray, int]:
        if take.audio is not None:
            return take.audio, take.sample_rate
        import soundfile as sf

        data, rate = sf.read(take.wav_path, dtype="float32")
        return data.reshape(-1) if data.ndim == 1 else data.mean(axis=1), int(rate)

    def _run(self, work):
        engine = self._engine_of()
        if engine is None:
            return work()
        return engine.call(work, timeout=CALL_TIMEOUT_S)

    def _learnt(self, key, language):
        """The voice's speaking rate from its clean takes, or None (too few yet)."""
        from app.audio import SpeakingRate

        if len(self._clean[key]) < LEARN_FROM:
            return None
        return SpeakingRate.learn(language, list(self._clean[key]))


def _judge(audio, rate, text, language, learnt):
    """The check itself: it may run on the engine's thread, even after `check` gave up
    waiting for it, so it touches nothing of the worker's."""
    from app.audio import Expectation, check_take

    return check_take(audio, rate, Expectation(text=text, language=language, rate=learnt))


class TakeCheckThread(OwnedThread):
    request = Signal(object)  # TakeToCheck

    def __init__(self, engine_of=None, parent=None):
        super().__init__(TakeCheckWorker(engine_of), "take-check-worker", parent)
        self.request.connect(self.worker.check)
