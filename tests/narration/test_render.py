"""Rendering a project on the tiny model through the engine: a render stopped midway and resumed
in a new session gives sample-identical takes; an edit re-renders only that sentence; a sentence
that fails is marked with its sentence and the rest are rendered; cancel leaves nothing half-made."""

from __future__ import annotations

import numpy as np
import pytest

from app.core.errors import StudioError
from app.core.request import SamplingParams
from app.narration.project import Project, SentenceStatus
from app.narration.render import Renderer
from tests.support.narration_books import book, script

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))


def _audio(project):
    return {(s.chapter_id, s.index): project.take_audio(s.take_id) for s in project.sentences()}


def _stop_and_resume(tmp_path, e, name, in_flight):
    parts = Project.create(tmp_path / f"{name}.ctsproj", book(), seed=5)
    first = Renderer(parts, e, in_flight=in_flight, **FAST)
    stopped = first.render(on_progress=lambda p: p.done >= 2 and first.stop())
    assert stopped.state == "stopped" and 0 < stopped.remaining < 6
    reopened = Project.open(parts.path)  # a new session: only the file carries over
    assert Renderer(reopened, e, in_flight=in_flight, **FAST).render().state == "finished"
    return reopened


def test_a_stopped_and_resumed_render_equals_an_uninterrupted_one(tmp_path, engine):
    """One sentence at a time, the resumed render's takes are the uninterrupted one's to the bit."""
    e = engine(start=True)
    whole = Project.create(tmp_path / "whole.ctsproj", book(), seed=5)
    seen = []
    outcome = Renderer(whole, e, in_flight=1, **FAST).render(on_progress=seen.append)
    assert (outcome.state, outcome.done, outcome.failed, outcome.remaining) == (
        "finished",
        6,
        [],
        0,
    )
    assert all(s.status == SentenceStatus.DONE for s in whole.sentences())
    assert all(c.reference for c in whole.chapters())  # each chapter's voice was locked
    assert seen[0].sentence_id is None and seen[-1].done == seen[-1].total == 6
    assert seen[-1].audio_seconds > 0 and seen[-1].eta_seconds == 0

    resumed = _stop_and_resume(tmp_path, e, "parts", in_flight=1)
    expected, got = _audio(whole), _audio(resumed)
    assert expected.keys() == got.keys()
    for key in expected:
        assert np.array_equal(expected[key], got[key]), key
    assert [c.reference for c in whole.chapters()] == [c.reference for c in resumed.chapters()]


def test_a_batched_render_resumes_with_the_same_voices_and_tokens(tmp_path, engine):
    """Batched (the default), sentences share batches differently after a resume: on the CPU the
    tokens are the same and the audio differs only in float rounding (the engine's own bound);
    each chapter's first sentence renders alone, so its voice reference is the same to the bit."""
    e = engine(start=True)
    whole = Project.create(tmp_path / "whole.ctsproj", book(), seed=5)
    assert Renderer(whole, e, **FAST).render().done == 6
    resumed = _stop_and_resume(tmp_path, e, "parts", in_flight=2)
    assert [c.reference for c in whole.chapters()] == [c.reference for c in resumed.chapters()]
    expected, got = _audio(whole), _audio(resumed)
    for key in expected:
        assert len(expected[key]) == len(got[key]), key
        np.testing.assert_allclose(expected[key], got[key], atol=1e-5)
        if key[1] == 0:
            assert np.array_equal(expected[key], got[key]), key


def test_an_edit_re_renders_only_that_sentence(tmp_path, engine):
    e = engine(start=True)
    project = Project.create(tmp_path / "book.ctsproj", book())
    Renderer(project, e, **FAST).render()
    before = {s.id: s.take_id for s in project.sentences()}
    edited = project.sentences()[4]
    project.edit_text(edited.id, "我们去图书馆。")
    outcome = Renderer(project, e, **FAST).render()
    assert outcome.done == 1
    after = {s.id: s.take_id for s in project.sentences()}
    assert [sid for sid in after if after[sid] != before[sid]] == [edited.id]
    assert len(project.takes(edited.id)) == 2
    assert all(len(project.takes(sid)) == 1 for sid in after if sid != edited.id)


def test_a_failing_sentence_keeps_the_rest(tmp_path, engine):
    e = engine(start=True)
    project = Project.create(tmp_path / "play.ctsproj", script())
    project.set_voice("Alice", seed=11)
    project.set_voice("Bob", speaker="not a speaker string")
    outcome = Renderer(project, e, **FAST).render()
    bob = [s for s in project.sentences() if s.speaker == "Bob"]
    assert outcome.failed == [bob[0].id] and outcome.done == 3
    failed = project.sentence(bob[0].id)
    assert failed.status == SentenceStatus.FAILED and failed.error
    assert "speaker" in failed.error.lower() or "voice" in failed.error.lower()
    assert all(s.status == SentenceStatus.DONE for s in project.sentences() if s.speaker != "Bob")

    project.set_voice("Bob", seed=12)
    again = Renderer(project, e, **FAST).render()
    assert (again.done, again.failed, again.remaining) == (1, [], 0)


def test_script_speakers_speak_with_their_voices(tmp_path, engine):
    """A voice is part of what a sentence is: the same text and seed with another voice differ."""
    e = engine(start=True)
    a = Project.create(tmp_path / "a.ctsproj", script())
    b = Project.create(tmp_path / "b.ctsproj", script())
    a.set_voice("Bob", seed=1)
    b.set_voice("Bob", seed=2)
    for project in (a, b):
        Renderer(project, e, **FAST).render()
    bob = next(i for i, s in enumerate(a.sentences()) if s.speaker == "Bob")
    alice = next(i for i, s in enumerate(a.sentences()) if s.speaker == "Alice")
    audio_a, audio_b = list(_audio(a).values()), list(_audio(b).values())
    assert np.array_equal(audio_a[alice], audio_b[alice])
    assert not np.array_equal(audio_a[bob], audio_b[bob])


def test_cancel_leaves_whole_takes_and_pending_sentences(tmp_path, engine):
    e = engine(start=True)
    project = Project.create(tmp_path / "book.ctsproj", book())
    renderer = Renderer(project, e, in_flight=2, **FAST)
    outcome = renderer.render(on_progress=lambda p: p.done >= 1 and renderer.cancel())
    assert outcome.state == "cancelled" and outcome.remaining > 0 and outcome.failed == []
    reopened = Project.open(project.path)
    assert reopened.notices == []
    for sentence in reopened.sentences():
        assert sentence.status in (SentenceStatus.DONE, SentenceStatus.PENDING)
        if sentence.status == SentenceStatus.DONE:
            assert len(reopened.take_audio(sentence.take_id)) > 0
    assert Renderer(reopened, e, **FAST).render().remaining == 0


def test_pause_finishes_what_is_in_flight_and_resume_goes_on(tmp_path, engine):
    import threading

    e = engine(start=True)
    project = Project.create(tmp_path / "book.ctsproj", book())
    renderer = Renderer(project, e, in_flight=1, **FAST)
    done_while_paused = []

    def on_progress(p):
        if p.done == 2 and not done_while_paused:
            renderer.pause()
            done_while_paused.append(p.done)
            # Nothing more is made while paused; resume a moment later from another thread.
            threading.Timer(
                0.5,
                lambda: (
                    done_while_paused.append(
                        sum(s.take_id is not None for s in project.sentences())
                    ),
                    renderer.resume(),
                ),
            ).start()

    outcome = renderer.render(on_progress=on_progress)
    assert outcome.state == "finished" and outcome.remaining == 0
    assert done_while_paused == [2, 2]


def test_rendering_chosen_sentences_only(tmp_path, engine):
    e = engine(start=True)
    project = Project.create(tmp_path / "book.ctsproj", book())
    wanted = project.sentences()[3]
    outcome = Renderer(project, e, **FAST).render(sentence_ids=[wanted.id])
    assert outcome.done == 1
    assert [s.id for s in project.sentences() if s.status == SentenceStatus.DONE] == [wanted.id]


def test_an_engine_that_was_shut_down_ends_the_render_with_a_sentence(tmp_path, engine):
    e = engine(start=True)
    project = Project.create(tmp_path / "book.ctsproj", book())
    e.close(timeout=60)
    with pytest.raises(StudioError, match="shut down"):
        Renderer(project, e, **FAST).render()
    assert all(
        s.status == SentenceStatus.PENDING for s in project.sentences()
    )  # none marked failed
