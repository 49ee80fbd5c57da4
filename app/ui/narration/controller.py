"""One open narration project in the window: its chapters and sentences as rows, the edits the
user makes (each one a transaction in the project), listening, and rendering on the narration
worker's thread with the window's engine.

Nothing here decodes audio with the model; the project keeps takes, the Renderer makes them.
The project opens a connection per operation, so the worker's thread and this one share it.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal, Slot

from app.core import SegmentMark, StudioError
from app.narration.render_state import RenderState
from app.ui.narration.envelopes import EnvelopeCache
from app.ui.narration.render_target import TargetKind
from app.ui.narration.sentence_model import SentenceRow
from app.ui.narration.waveform import Waveform
from app.workers.narration_worker import NarrationThread

log = logging.getLogger("chattts_studio.ui")

SAMPLE_RATE = 24_000
PLAY_GAP_S = 0.3  # between sentences when playing on from one
PLAY_LIMIT_S = 20 * 60  # play-from-here stops after this much audio (memory, not taste)


class NarrationController(QObject):
    opened = Signal()  # a project was opened or created
    rowChanged = Signal(object)  # SentenceRow: a sentence's new state
    chapterChanged = Signal(object)  # chapter id whose rows and waveform changed
    waveformsReady = Signal()  # more of the chapter waveform can be drawn
    renderStarted = Signal()
    renderProgress = Signal(object)  # app.narration.progress.RenderProgress
    renderEnded = Signal(str, int)  # a RenderState; failed sentences
    failed = Signal(str)  # the sentence to show
    exportEnded = Signal(
        object, object
    )  # files written (list of str) or None after a failure; warnings
    hearing = Signal(object)  # the id of the sentence the sound card plays now, or None

    def __init__(self, model, speech, parent=None, renderer_factory=None, render_options=None):
        """`renderer_factory(project, engine, **render_options())`: app.narration.render.Renderer
        unless a test gives another; `render_options` gives the window's current choices."""
        super().__init__(parent)
        self.model = model
        self.speech = speech
        self.project = None
        self.path: Path | None = None
        self.rendering = False
        self.paused = False
        self.envelopes = EnvelopeCache(self)
        self.envelopes.ready.connect(self.waveformsReady)
        self._followed: list = []  # ids of the sentences play_from plays, one per segment
        self._followed_audio = None  # the audio they are in (another play is not followed)
        # A stand-in for the speech controller (tests) may not follow the sound card.
        self._follows = hasattr(speech, "readingAt")
        if self._follows:
            speech.readingAt.connect(self._on_reading_at)
        self._thread = NarrationThread(renderer_factory, parent=self)
        self._render_options = render_options or dict
        w = self._thread.worker
        w.progress.connect(self._on_progress)
        w.sentenceDone.connect(self._on_sentence_done)
        w.ended.connect(self._on_ended)
        w.noted.connect(self._on_noted)
        w.failed.connect(self._on_failed)
        w.exported.connect(self._on_exported)
        self.exporting = False
        self._export_settings = None
        self._rendering_project = None
        self.flagged: set = set()  # ids of sentences whose chosen take the check flagged
        self.render_notes: list[str] = []  # what the last render said once
        from app.ui.narration.render_target import RenderTarget

        self.target = RenderTarget()  # where the next render runs (the window's model by default)

    # -- opening ------------------------------------------------------------------------------
    def open(self, path: str) -> list[str]:
        """Open a project file; its notices (what was damaged and skipped). Raises StudioError."""
        from app.narration.project import Project

        project = Project.open(Path(path))
        self._use(project, Path(path))
        return list(getattr(project, "notices", ()) or ())

    def create(self, source: str, target: str, seed: int, speaker: str | None = None) -> list[str]:
        """A new project from a text, Markdown, EPUB, subtitle or script file; the notices of
        reading it. Raises StudioError."""
        from app.narration.inputs import read_source
        from app.narration.project import Project

        document = read_source(Path(source))
        project = Project.create(Path(target), document, seed=seed, speaker=speaker)
        self._use(project, Path(target))
        return list(document.notices) + list(getattr(project, "notices", ()) or ())

    def _use(self, project, path: Path) -> None:
        self.cancel()
        self.project, self.path = project, path
        self._count_flagged()
        self.envelopes.use(project)
        self.opened.emit()

    # -- reading ------------------------------------------------------------------------------
    def chapters(self) -> list:
        return list(self.project.chapters()) if self.project is not None else []

    def sentences(self, chapter_id) -> list:
        return list(self.project.sentences(chapter_id)) if self.project is not None else []

    def takes(self, sentence_id) -> list:
        return list(self.project.takes(sentence_id)) if self.project is not None else []

    def take_audio(self, take_id) -> np.ndarray:
        return np.asarray(self.project.take_audio(take_id), dtype=np.float32)

    def take_info(self, sentence) -> tuple[int, int]:
        """How many takes the sentence has, and the number of the chosen one (0: none)."""
        takes = self.takes(sentence.id)
        return len(takes), next((i for i, t in enumerate(takes, 1) if t.id == sentence.take_id), 0)

    def make_row(self, sentence) -> SentenceRow:
        return SentenceRow(sentence, *self.take_info(sentence))

    def rows(self, chapter_id) -> list[SentenceRow]:
        """The chapter's sentences; their takes are counted when a row is shown (take_info)."""
        return [SentenceRow(s) for s in self.sentences(chapter_id)]

    def find(self, sentence_id):
        """The sentence with this id, or None (with `failed`) when it is gone."""
        try:
            return self.project.sentence(sentence_id) if self.project is not None else None
        except StudioError as exc:
            self.failed.emit(str(exc))
            return None

    def chapter_waveform(self, chapter_id) -> Waveform:
        """The chosen takes of a chapter side by side, as far as they are decoded (off this
        thread: waveformsReady says when more are)."""
        return self.envelopes.waveform(self.sentences(chapter_id))

    def sentence_waveform(self, take_id, sentence_id=None) -> Waveform:
        return Waveform.of_audio(self._audio_or_silence(take_id), SAMPLE_RATE, sentence_id)

    def _audio_or_silence(self, take_id) -> np.ndarray:
        try:
            return self.take_audio(take_id)
        except StudioError as exc:
            self.failed.emit(str(exc))
            return np.zeros(0, np.float32)

    # -- changes: each is one transaction in the project, then the row shows its answer -------
    def _count_flagged(self) -> None:
        sentences = self.project.sentences() if self.project is not None else []
        self.flagged = {s.id for s in sentences if _flagged(s)}

    def _changed(self, sentence_id) -> None:
        sentence = self.find(sentence_id)
        if sentence is not None:
            if _flagged(sentence):
                self.flagged.add(sentence.id)
            else:
                self.flagged.discard(sentence.id)
            self.rowChanged.emit(self.make_row(sentence))
            self.chapterChanged.emit(sentence.chapter_id)

    def _call(self, fn, *args) -> bool:
        try:
            fn(*args)
            return True
        except StudioError as exc:
            self.failed.emit(str(exc))
            return False

    def edit_text(self, sentence_id, text: str) -> None:
        if self._call(self.project.edit_text, sentence_id, text):
            self._changed(sentence_id)

    def set_locked(self, sentence_id, locked: bool) -> None:
        if self._call(self.project.set_locked, sentence_id, locked):
            self._changed(sentence_id)

    def choose_take(self, sentence_id, take_id) -> None:
        if self._call(self.project.choose_take, sentence_id, take_id):
            self._changed(sentence_id)

    def regenerate(self, sentence_id) -> None:
        """A new take with a new seed; the earlier takes stay to choose from."""
        if self._call(self.project.regenerate, sentence_id):
            self._changed(sentence_id)
            self.render([sentence_id])

    def take_tries(self) -> int:
        """Takes a flagged sentence gets (the project's setting)."""
        from app.narration.project import DEFAULT_TAKE_TRIES

        if self.project is None:
            return DEFAULT_TAKE_TRIES
        try:
            return int(self.project.take_tries())
        except StudioError:
            return DEFAULT_TAKE_TRIES

    @Slot(int)
    def set_take_tries(self, tries: int) -> None:
        if self.project is not None:
            self._call(self.project.set_take_tries, int(tries))

    def can_retake_flagged(self) -> bool:
        return bool(self.flagged) and self.model.engine() is not None and not self.rendering

    def retake_flagged(self) -> int:
        """Render again every flagged sentence that is not locked, each with the next seed of its
        sequence (a regeneration), and nothing else; how many were sent."""
        if self.project is None or self.rendering:
            return 0
        ids = []
        for sentence in self.project.sentences():
            if _flagged(sentence) and not sentence.locked and sentence.id in self.flagged:
                if self._call(self.project.regenerate, sentence.id):
                    ids.append(sentence.id)
                    self._changed(sentence.id)
        if ids:
            self.render(ids)
        return len(ids)

    # -- listening (the window's own sound output) ---------------------------------------------
    def play_take(self, take_id) -> bool:
        audio = self._audio_or_silence(take_id)
        self._follow([], None)
        return len(audio) > 0 and self.speech.play_audio(audio, SAMPLE_RATE)

    def compare(self, first_take, second_take) -> bool:
        gap = np.zeros(int(SAMPLE_RATE * 0.6), np.float32)
        audio = np.concatenate(
            [self._audio_or_silence(first_take), gap, self._audio_or_silence(second_take)]
        )
        self._follow([], None)
        return self.speech.play_audio(audio, SAMPLE_RATE)

    def play_from(self, sentence_id) -> bool:
        """The chapter's chosen takes from this sentence on; unrendered sentences are skipped.
        Each sentence (with the gap after it) is one segment, so the view follows what is heard
        and next/previous sentence skip by sentence."""
        sentence = self.find(sentence_id)
        if sentence is None:
            return False
        gap = np.zeros(int(SAMPLE_RATE * PLAY_GAP_S), np.float32)
        pieces, length = [], 0
        ids, marks = [], []
        for s in self.sentences(sentence.chapter_id):
            if s.index < sentence.index or s.take_id is None:
                continue
            audio = self._audio_or_silence(s.take_id)
            pieces += [audio, gap]
            marks.append(SegmentMark(length, length + len(audio) + len(gap)))
            ids.append(s.id)
            length += len(audio) + len(gap)
            if length > PLAY_LIMIT_S * SAMPLE_RATE:
                break
        if not pieces:
            return False
        audio = np.concatenate(pieces)
        self._follow(ids, audio)
        if self.speech.play_audio(audio, SAMPLE_RATE, marks=marks):
            if self._follows:  # the segment heard may be the one before's number: no signal
                self._on_reading_at(self.speech.reading.current, None)
            return True
        self._follow([], None)
        return False

    def stop_playing(self) -> None:
        if self.speech.busy:
            self.speech.output.stop()  # the main window's request: its own Stop ends it
        else:
            self.speech.stop()
        self._follow([], None)

    def _follow(self, sentence_ids: list, audio) -> None:
        self._followed, self._followed_audio = list(sentence_ids), audio
        if not sentence_ids:
            self.hearing.emit(None)

    @Slot(int, object)
    def _on_reading_at(self, segment: int, _span) -> None:
        """The sentence heard, while what plays is this view's play_from."""
        reading = self.speech.reading
        ours = self._followed and reading.saved_audio is self._followed_audio
        if not ours:
            if self._followed:
                self._follow([], None)
            return
        if 0 <= segment < len(self._followed):
            self.hearing.emit(self._followed[segment])
        else:
            self._follow([], None)  # all heard, or stopped

    # -- rendering ------------------------------------------------------------------------------
    def can_render(self) -> bool:
        ready = self.model.engine() is not None or self.target.kind is not TargetKind.WINDOW
        return self.project is not None and ready and not self.rendering

    def render(self, sentence_ids=None) -> bool:
        self.render_notes = []
        return self._render(sentence_ids)

    def _render(self, sentence_ids=None) -> bool:
        """Render what is pending (or only these sentences) at background priority, with the
        window's engine or on the farm `self.target` names."""
        engine = self.model.engine()
        if self.project is None or self.rendering:
            return False
        if (
            self.target.kind is not TargetKind.WINDOW and sentence_ids is None
        ):  # a new take stays in the window
            from app.ui.narration.render_target import farm_factory

            settings = self.model.settings
            engine = farm_factory(
                self.target,
                self.model.model_dir(),
                self.model.effective_device(),
                settings.precision,
            )
        if engine is None:
            self.failed.emit(self.tr("Load a model first: narration is rendered by the model."))
            return False
        self.rendering, self.paused = True, False
        self._rendering_project = self.project
        self.renderStarted.emit()
        self._thread.requestRender.emit(
            self.project,
            engine,
            list(sentence_ids) if sentence_ids else None,
            self._render_options(),
        )
        return True

    def pause(self) -> None:
        if self.rendering:
            self.paused = not self.paused
            self._thread.worker.set_paused(self.paused)

    def cancel(self) -> None:
        if self.rendering:
            self._thread.worker.cancel()

    # -- export ---------------------------------------------------------------------------------
    def export_settings(self):
        """The settings of the last export in this session, else the defaults."""
        from app.narration.export.settings import ExportSettings

        return self._export_settings or ExportSettings()

    def export(self, settings, out: str, overwrite: bool = False) -> bool:
        """Write the chosen takes as audio (and subtitles) on the worker thread: exportEnded.
        `overwrite`: the user agreed to replace the file(s) already there."""
        if self.project is None or self.rendering or self.exporting:
            return False
        self._export_settings = settings
        self.exporting = True
        self._thread.requestExport.emit(self.project, settings, str(out), bool(overwrite))
        return True

    @Slot(object, object)
    def _on_exported(self, paths, warnings) -> None:
        self.exporting = False
        self.exportEnded.emit(list(paths), list(warnings))

    def _current_render(self) -> bool:
        """False for the tail of a render of a project closed since (it was cancelled then)."""
        return self._rendering_project is self.project

    @Slot(object)
    def _on_progress(self, progress) -> None:
        if self._current_render():
            self.renderProgress.emit(progress)

    @Slot(object)
    def _on_sentence_done(self, sentence_id) -> None:
        if self._current_render():
            self._changed(sentence_id)

    @Slot(object)
    def _on_noted(self, notes) -> None:
        self.render_notes = list(notes or ())

    @Slot(str, int)
    def _on_ended(self, state: str, failed: int) -> None:
        self.rendering = self.paused = False
        self._count_flagged()
        self.renderEnded.emit(state, failed)

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.failed.emit(message)
        if self.exporting:
            self.exporting = False
            self.exportEnded.emit(None, [])
        if self.rendering:
            self.rendering = self.paused = False
            self.renderEnded.emit(RenderState.FAILED, 0)

    def shutdown(self) -> bool:
        self.cancel()
        stopped = self._thread.shutdown()
        return self.envelopes.shutdown() and stopped


def _flagged(sentence) -> bool:
    check = getattr(sentence, "check", None)
    return check is not None and check.checked and check.flagged
