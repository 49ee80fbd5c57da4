"""Helpers for the Narration view's tests: a real project file, and stand-ins for the window's
model and speech controllers and for the Renderer (whose own tests are in tests/narration)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QObject, Signal

from app.core import ModelKind
from app.narration.project import Project
from app.narration.source import SourceChapter, SourceDocument, SourceSentence
from app.selftest.fake_audio import FakeOutput
from app.ui.controllers.model import ModelState
from app.workers.synthesis_worker import ModelStatus

RATE = 24_000


def make_project(
    path,
    chapters=(
        ("One", ("Hello there.", "A second sentence.", "The third.")),
        ("Two", ("Only one here.",)),
    ),
) -> Project:
    document = SourceDocument(
        "Book",
        "text",
        tuple(
            SourceChapter(title, tuple(SourceSentence(t) for t in texts))
            for title, texts in chapters
        ),
        author="Jane Doe",
    )
    return Project.create(path, document, seed=7)


def tone(seconds: float, level: float) -> np.ndarray:
    return np.full(int(RATE * seconds), level, np.float32)


class FakeModel(QObject):
    """The window's ModelController as the narration view reads it."""

    stateChanged = Signal(object)

    def __init__(self, test_model=True, engine=True):
        super().__init__()
        self.state = ModelState.READY
        kind = ModelKind.RANDOM_WEIGHTS if test_model else ModelKind.OFFICIAL
        self.status = ModelStatus("/m", "cpu", "", "test", kind, 0.1)
        self._engine = object() if engine else None

    def engine(self):
        return self._engine

    def makes_noise(self) -> bool:  # as ModelController.makes_noise reads its state
        ready = self.state is ModelState.READY and self.status is not None
        return ready and not self.status.model_kind.makes_speech


class FakeSpeech:
    def __init__(self):
        self.output = FakeOutput()
        self.played: list[np.ndarray] = []
        self.busy = False

    def play_audio(self, audio, rate, marks=None):
        self.played.append(np.asarray(audio))
        self.marks = list(marks or [])
        return True

    def stop(self):
        self.output.stop()

    def toggle_pause(self):
        pass

    def skip(self, delta):
        return False


@dataclass(frozen=True)
class Progress:
    """The fields of app.narration.progress.RenderProgress that the view reads."""

    chapter_id: int
    chapter_index: int
    chapter_done: int
    chapter_total: int
    done: int
    total: int
    sentence_id: int | None
    eta_seconds: float | None


@dataclass
class Outcome:
    """app.narration.render.RenderOutcome's fields that the view reads."""

    state: str
    done: int = 0
    failed: list = field(default_factory=list)


class FakeRenderer:
    """Adds a take of 0.5 s per pending sentence, reporting progress after each; `gate`
    (a threading.Semaphore), when set on the class, lets one sentence through per release."""

    gate: threading.Semaphore | None = None
    made: list = []  # noqa: RUF012 (shared on purpose: the tests read what every instance made)

    def __init__(self, project, engine, **options):
        self.project, self.engine, self.options = project, engine, options
        self.cancelled = self.paused = False
        FakeRenderer.made.append(self)

    def pause(self):
        self.paused = True

    def resume(self):
        self.paused = False

    def cancel(self):
        self.cancelled = True
        if FakeRenderer.gate is not None:
            FakeRenderer.gate.release(100)

    def render(self, sentence_ids=None, on_progress=None):
        todo = [s for s in self.project.pending() if sentence_ids is None or s.id in sentence_ids]
        chapters = {c.id: c for c in self.project.chapters()}
        for done, s in enumerate(todo, 1):
            if FakeRenderer.gate is not None:
                FakeRenderer.gate.acquire(timeout=30)
            if self.cancelled:
                return Outcome("cancelled", done - 1)
            self.project.add_take(s.id, tone(0.5, 0.1 * done), seed=s.seed, worker="fake")
            in_chapter = [t for t in todo if t.chapter_id == s.chapter_id]
            on_progress(
                Progress(
                    s.chapter_id,
                    chapters[s.chapter_id].index,
                    in_chapter.index(s) + 1,
                    len(in_chapter),
                    done,
                    len(todo),
                    s.id,
                    120.0 * (len(todo) - done),
                )
            )
        return Outcome("finished", len(todo))
