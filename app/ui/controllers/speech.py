"""Speaking: one request at a time on the synthesis worker, its audio streamed to the sound
output, Stop, replaying saved audio, and voices made from recordings.

Any client (the window's Play, an audition, the first-run wizard's test sentence) starts a
request here and hears about it through the same signals. What is heard is followed here too
(reading.py): the sentence the sound card is playing, pause, next and previous sentence.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal, Slot

from app.audio import SAMPLE_RATE, BufferState
from app.core import ModelKind, SegmentMark, SynthesisRequest
from app.text import check_text
from app.ui.controllers.model import ModelState
from app.ui.controllers.progress import SpeechProgress
from app.ui.controllers.reading import Reading


class NotReady(Exception):
    """A request before the model is loaded (the caller says so in its own words)."""


class SpeechController(QObject):
    started = Signal()  # a request went to the worker
    progress = Signal(int, int)  # segments done, segments total
    fraction = Signal(float)  # 0..1 of the request, moved by each piece of audio
    finished = Signal(object, object, bool)  # SynthesisRequest, SynthesisResult, audition
    failed = Signal(str)  # the sentence to show
    stopped = Signal()  # the user stopped the request (it ends at once here)
    stopConfirmed = Signal()  # the worker has really ended a stopped request
    busyChanged = Signal(bool)
    outputChanged = Signal()  # another sound output is in use
    referenceReady = Signal(str, str, str)  # audio codes, transcript, source file
    referenceFailed = Signal(str)
    bufferingChanged = Signal(bool)  # playback waits for audio (between sentences, in a pause)
    _outputState = Signal(object)  # BufferState, from the audio thread (queued)
    readingAt = Signal(int, object)  # the segment the sound card plays (-1: none), its span
    pausedChanged = Signal(bool)

    def __init__(self, worker_thread, model, output, parent=None):
        super().__init__(parent)
        self._worker = worker_thread
        self._model = model
        self.output = output
        self._outputState.connect(self._on_output_state, Qt.ConnectionType.QueuedConnection)
        output.set_state_listener(self._outputState.emit)
        self._job = None
        self._audition = False
        self._progress = SpeechProgress("")
        self.made_by = ModelKind.OFFICIAL
        self.reading = Reading(self, output)
        self.reading.at.connect(self.readingAt)
        self.reading.pausedChanged.connect(self.pausedChanged)
        worker = worker_thread.worker
        worker.chunkReady.connect(self._on_chunk)
        worker.progress.connect(self._on_progress)
        worker.finished.connect(self._on_finished)
        worker.failed.connect(self._on_failed)
        worker.cancelled.connect(self._on_cancelled)
        worker.referenceReady.connect(self.referenceReady)
        worker.referenceFailed.connect(self.referenceFailed)

    @property
    def busy(self) -> bool:
        return self._job is not None

    def output_problem(self) -> str | None:
        """Why nothing can be heard (no sound device), or None."""
        return self.output.problem

    def use_output(self, output) -> None:
        self.output.stop()
        self.reading.reset()
        self.output.set_state_listener(None)
        self.output = output
        self.reading.output = output
        output.set_state_listener(self._outputState.emit)
        self.outputChanged.emit()

    def start(
        self,
        request: SynthesisRequest,
        audition: bool = False,
        text_offset: int = 0,
        shown_text: str | None = None,
    ) -> bool:
        """Send `request` to the worker; False while another one runs. Raises InputTextError
        or ParameterError for a request that cannot run, NotReady before the model is loaded.
        `text_offset`: where the request's text starts in `shown_text`, the text shown (Play from
        a sentence; by default the request's own text)."""
        if self._job is not None:
            return False
        check_text(request.text)
        request.validate()
        if self._model.state is not ModelState.READY:
            raise NotReady()
        self._job = self._worker.new_job(request)
        self._audition = audition
        # The model that makes this request, kept for its result: a reload started meanwhile
        # must not relabel the audio (tests/ui/test_main_window.py).
        self.made_by = self._model.model_kind()
        self._progress = SpeechProgress(request.text)
        self.output.start(SAMPLE_RATE)
        self.reading.begin_stream(
            SAMPLE_RATE, text_offset, request.text if shown_text is None else shown_text
        )
        self.started.emit()
        self.busyChanged.emit(True)
        self._worker.submit.emit(self._job)
        return True

    def stop(self) -> None:
        self.output.stop()
        self.reading.reset()
        if self._job is None:
            return
        self._worker.worker.cancel(self._job.id)
        self._end()
        self.stopped.emit()

    def play_audio(
        self,
        audio,
        rate: int,
        marks: list[SegmentMark] | None = None,
        segment: int = 0,
        text: str | None = None,
    ) -> bool:
        """Play saved audio (a history entry) from `segment` of its `marks` (none: the whole,
        not followed sentence by sentence) of `text`; not while a request is speaking."""
        if self.busy:
            return False
        self.reading.play_saved(audio, rate, marks or [], segment, text)
        return True

    # -- transport: what the read-along follows -------------------------------------------
    def toggle_pause(self) -> None:
        self.reading.toggle_pause()

    def skip(self, delta: int) -> bool:
        """To the next (+1) or previous (-1) sentence of what plays; False when nothing does."""
        return self.reading.skip(delta)

    def play_from(self, segment: int) -> bool:
        """Play again from `segment` of the audio just heard (saved or still streaming)."""
        return self.reading.jump(segment)

    def make_voice(self, path: str, transcript: str) -> None:
        """A voice from a recording, made by the loaded model: referenceReady or referenceFailed."""
        self._worker.requestReference.emit(path, transcript)

    def _end(self) -> None:
        self._job = None
        self._audition = False
        self.busyChanged.emit(False)

    def _current(self, job_id: int) -> bool:
        return self._job is not None and self._job.id == job_id

    @Slot(int, object)
    def _on_chunk(self, job_id: int, chunk) -> None:
        if self._current(job_id):
            self.reading.stream_chunk(chunk)
            self.fraction.emit(self._progress.audio(len(chunk.samples) / SAMPLE_RATE))

    @Slot(object)
    def _on_output_state(self, state) -> None:
        self.bufferingChanged.emit(state is BufferState.BUFFERING)

    @Slot(int, int, int)
    def _on_progress(self, job_id: int, done: int, total: int) -> None:
        if self._current(job_id):
            self.progress.emit(done, total)
            self.fraction.emit(self._progress.sentences(done, total))

    @Slot(int, object)
    def _on_finished(self, job_id: int, result) -> None:
        if not self._current(job_id):
            return
        request, audition = self._job.request, self._audition
        self.output.end_stream()
        self.reading.stream_done(result)
        self._end()
        self.finished.emit(request, result, audition)

    @Slot(int, str)
    def _on_failed(self, job_id: int, message: str) -> None:
        if not self._current(job_id):
            return
        self.output.stop()
        self.reading.reset()
        self._end()
        self.failed.emit(message)

    @Slot(int)
    def _on_cancelled(self, job_id: int) -> None:
        if self._current(job_id):
            self._end()
        self.stopConfirmed.emit()
