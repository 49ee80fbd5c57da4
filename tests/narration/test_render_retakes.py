"""Narration checks every take (issue 42): a sentence whose first take is silent, cut off or
said twice is made again with the next seed of its own sequence and the best try is chosen;
every try is recorded with what was found; the rest of the project is not touched; the same
render twice gives the same takes. Takes are real speech (espeak-ng recordings) from a
stand-in engine that injects the defects."""

from __future__ import annotations

import logging
import queue
import sqlite3
import sys
import threading

import numpy as np
import pytest

from app.audio.takes import model_files, speaker, vad
from app.core import SynthesisCancelled
from app.narration.project import Project, SentenceStatus, retake_seed, schema
from app.narration.render import Renderer
from tests.support.take_engine import EN, TEXTS, ZH, SpeechEngine, speech_book

SPOIL = {
    TEXTS[EN[1]]: "silence",
    TEXTS[EN[2]]: "truncated",
    TEXTS[ZH[0]]: "truncated",  # a chapter's first sentence: it gives the chapter's voice
    TEXTS[ZH[1]]: "repeated",
    TEXTS[EN[3]]: "other_voice",  # not the chapter's voice (its first sentence's)
}


KINDS = {
    "silence": "no_speech",
    "truncated": "cut_off",
    "repeated": "too_long",
    "other_voice": "voice_drift",
}


def render(tmp_path, name, spoil=SPOIL, tries=None):
    project = Project.create(tmp_path / f"{name}.ctsproj", speech_book(), seed=9)
    if tries is not None:
        project.set_take_tries(tries)
    engine = SpeechEngine(spoil)
    outcome = Renderer(project, engine, in_flight=3).render()
    return project, engine, outcome


def test_every_spoilt_sentence_is_re_taken_and_nothing_else_is_touched(tmp_path):
    project, engine, outcome = render(tmp_path, "book")
    assert outcome.state == "finished" and outcome.failed == [] and outcome.remaining == 0
    spoilt = {s.id for s in project.sentences() if s.text in SPOIL}
    assert set(outcome.retaken) == spoilt and outcome.flagged == []
    for sentence in project.sentences():
        tries = project.take_checks(sentence.id)
        assert sentence.status == SentenceStatus.DONE
        assert sentence.check is not None and sentence.check.checked
        assert not sentence.check.flagged, sentence.check.reasons()
        if sentence.id not in spoilt:
            # One take, the sentence's own seed, nothing rejected.
            assert [t.seed for t in project.takes(sentence.id)] == [sentence.seed]
            assert [(c.attempt, c.flagged) for c in tries] == [(0, False)]
            continue
        # The first try was rejected for its defect, the second (the next seed) kept.
        takes = project.takes(sentence.id)
        assert [t.seed for t in takes] == [sentence.seed, retake_seed(sentence.seed, 1)]
        assert [c.attempt for c in tries] == [0, 1]
        assert KINDS[SPOIL[sentence.text]] in tries[0].kinds()
        assert all(r.endswith(".") for r in tries[0].reasons())
        assert sentence.take_id == takes[1].id == tries[1].take_id
    # The engine was asked for exactly one more take per spoilt sentence.
    assert len(engine.requests) == len(project.sentences()) + len(spoilt)


def test_the_same_render_twice_gives_the_same_takes(tmp_path):
    first, _e, _o = render(tmp_path, "first")
    second, _e, _o = render(tmp_path, "second")

    def takes(project):
        return [
            (s.index, [t.seed for t in project.takes(s.id)], project.take_audio(s.take_id))
            for s in project.sentences()
        ]

    for (i, seeds_a, audio_a), (j, seeds_b, audio_b) in zip(takes(first), takes(second)):
        assert (i, seeds_a) == (j, seeds_b)
        assert np.array_equal(audio_a, audio_b)
    assert [c.reference for c in first.chapters()] == [c.reference for c in second.chapters()]


def test_the_tries_are_recorded_and_read_back(tmp_path):
    project, _engine, _outcome = render(tmp_path, "book")
    reopened = Project.open(project.path)
    assert reopened.notices == []
    silent = next(s for s in reopened.sentences() if s.text == TEXTS[EN[1]])
    first, second = reopened.take_checks(silent.id)
    assert first.kinds() == ["no_speech"] and first.score == 0.0 and first.flagged
    assert "no speech" in first.reasons()[0]
    assert second.score == 1.0 and second.speech_seconds > 1.0


def test_a_sentence_flagged_on_every_try_keeps_its_best_try_and_says_why(tmp_path):
    spoil = {TEXTS[EN[1]]: ("silence", None), TEXTS[EN[2]]: ("repeated", 2)}
    project, engine, outcome = render(tmp_path, "book", spoil)
    silent = next(s for s in project.sentences() if s.text == TEXTS[EN[1]])
    twice = next(s for s in project.sentences() if s.text == TEXTS[EN[2]])
    assert len(project.take_checks(silent.id)) == 3  # the default number of tries
    assert silent.check is not None and silent.check.kinds() == ["no_speech"]
    assert silent.check.attempt == 0  # equal scores: the first try stays
    assert len(project.take_checks(twice.id)) == 3 and twice.check.attempt == 2
    assert outcome.flagged == [silent.id] and set(outcome.retaken) == {silent.id, twice.id}


def test_the_number_of_tries_is_the_projects_setting(tmp_path):
    project, engine, outcome = render(tmp_path, "book", tries=1)
    assert outcome.retaken == [] and len(engine.requests) == len(project.sentences())
    flagged = {s.id for s in project.sentences() if s.check is not None and s.check.flagged}
    assert flagged == {s.id for s in project.sentences() if s.text in SPOIL}
    assert sorted(outcome.flagged) == sorted(flagged)
    assert Project.open(project.path).take_tries() == 1
    with pytest.raises(Exception, match="tries"):
        project.set_take_tries(0)


def test_re_taking_the_flagged_sentences_renders_just_those_with_new_seeds(tmp_path):
    project, engine, _outcome = render(tmp_path, "book", tries=1)
    flagged = [s for s in project.sentences() if s.check is not None and s.check.flagged]
    before = {s.id: s.take_id for s in project.sentences()}
    for sentence in flagged:
        project.regenerate(sentence.id)
    outcome = Renderer(project, SpeechEngine(), in_flight=3).render()
    assert outcome.done == len(flagged) and outcome.flagged == []
    after = {s.id: s.take_id for s in project.sentences()}
    assert {sid for sid in after if after[sid] != before[sid]} == {s.id for s in flagged}


def test_a_render_cancelled_between_tries_goes_on_with_the_next(tmp_path):
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    spoilt = TEXTS[EN[1]]
    sentence = next(s for s in project.sentences() if s.text == spoilt)

    class CancelledOnTheRetake(SpeechEngine):
        def submit(self, request, priority=None):
            job = super().submit(request, priority)
            if len(self.requests) == 2:  # the re-take: the user cancels while it renders
                renderer.cancel()
                job.result = _cancelled
            return job

    renderer = Renderer(project, CancelledOnTheRetake(SPOIL), in_flight=1)
    assert renderer.render(sentence_ids=[sentence.id]).state == "cancelled"
    assert project.sentence(sentence.id).status == SentenceStatus.PENDING
    assert [c.attempt for c in project.take_checks(sentence.id)] == [0]

    engine = SpeechEngine()  # a new session: the stored first try is not made again
    Renderer(Project.open(project.path), engine, in_flight=1).render(sentence_ids=[sentence.id])
    assert engine.requests == [(spoilt, retake_seed(sentence.seed, 1))]
    done = project.sentence(sentence.id)
    assert done.status == SentenceStatus.DONE and done.check.attempt == 1


def _cancelled(on_chunk=None):
    raise SynthesisCancelled("cancelled")


def test_a_bad_check_record_is_skipped_with_a_sentence(tmp_path):
    project, _engine, _outcome = render(tmp_path, "book", spoil={})
    sentence = project.sentences()[0]
    with sqlite3.connect(project.path) as con:
        con.execute(
            "UPDATE take_checks SET findings = 'garbage' WHERE take_id = ?", (sentence.take_id,)
        )
    reopened = Project.open(project.path)
    assert any("take checker" in n for n in reopened.notices)
    assert reopened.sentence(sentence.id).check is None
    assert reopened.sentence(sentence.id).status == SentenceStatus.DONE


def test_an_older_project_gains_the_tries_table(tmp_path):
    project = Project.create(tmp_path / "old.ctsproj", speech_book(), seed=9)
    with sqlite3.connect(project.path) as con:
        con.execute("DROP TABLE take_checks")
        con.execute("PRAGMA user_version = 1")
    reopened = Project.open(project.path)
    with sqlite3.connect(reopened.path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 2
    outcome = Renderer(reopened, SpeechEngine(), in_flight=3).render()
    assert outcome.done == 7 and all(s.check for s in reopened.sentences())


@pytest.fixture
def no_checker_models(monkeypatch):
    monkeypatch.setattr(vad, "_model", None)
    monkeypatch.setattr(speaker, "_encoder", None)
    monkeypatch.setattr(model_files, "_said", set())
    monkeypatch.setitem(sys.modules, "silero_vad", None)


def test_without_the_checkers_models_narration_says_so_once_and_goes_on(
    tmp_path, no_checker_models, caplog
):
    with caplog.at_level(logging.WARNING):
        project, engine, outcome = render(tmp_path, "book")
    assert outcome.state == "finished" and outcome.done == 7 and outcome.retaken == []
    assert len(outcome.notes) == 1 and "not checked" in outcome.notes[0]
    assert len(engine.requests) == 7
    assert all(s.check is not None and not s.check.checked for s in project.sentences())
    said = [r for r in caplog.records if "not checked" in r.getMessage()]
    assert len(said) <= 2  # the checker's own line and narration's, each once


def test_re_taking_a_flagged_sentence_keeps_its_take_when_no_new_try_is_better(tmp_path):
    # Flagged for a cut-off ending, then re-taken by a model that makes silence on every try:
    # the silent tries score lower, so the cut-off take stays chosen.
    project, _engine, _outcome = render(tmp_path, "book", tries=1)
    cut = next(s for s in project.sentences() if s.text == TEXTS[EN[2]])
    assert cut.check is not None and cut.check.flagged and cut.check.score > 0.0
    project.regenerate(cut.id)
    engine = SpeechEngine({cut.text: ("silence", None)})
    project.set_take_tries(3)
    outcome = Renderer(project, engine, in_flight=3).render(sentence_ids=[cut.id])
    assert len(engine.requests) == 3  # every new try was made and rejected
    after = project.sentence(cut.id)
    assert after.status == SentenceStatus.DONE
    assert after.take_id == cut.take_id and after.check == cut.check  # the kept try
    new_tries = [c for c in project.take_checks(cut.id) if c.take_id != cut.take_id]
    assert [c.kinds() for c in new_tries] == [["no_speech"]] * 3
    assert outcome.flagged == [cut.id] and outcome.retaken == [cut.id]


def test_re_taking_a_flagged_sentence_chooses_a_better_new_try(tmp_path):
    project, _engine, _outcome = render(tmp_path, "book", tries=1)
    cut = next(s for s in project.sentences() if s.text == TEXTS[EN[2]])
    project.regenerate(cut.id)
    Renderer(project, SpeechEngine(), in_flight=3).render(sentence_ids=[cut.id])
    after = project.sentence(cut.id)
    assert after.take_id != cut.take_id and not after.check.flagged


def test_a_new_speed_does_not_keep_the_take_of_the_old_speed(tmp_path):
    project, _engine, _outcome = render(tmp_path, "book", tries=1)
    cut = next(s for s in project.sentences() if s.text == TEXTS[EN[2]])
    project.set_speed(cut.id, cut.speed + 1)
    engine = SpeechEngine({cut.text: ("silence", None)})
    Renderer(project, engine, in_flight=3).render(sentence_ids=[cut.id])
    after = project.sentence(cut.id)
    assert after.take_id != cut.take_id and after.check.kinds() == ["no_speech"]


@pytest.mark.parametrize("halt", ["stop", "pause"])
def test_a_halted_render_makes_no_more_tries_and_goes_on_from_the_stored_ones(tmp_path, halt):
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    spoilt = TEXTS[EN[1]]
    sentence = next(s for s in project.sentences() if s.text == spoilt)

    class HaltedOnTheFirstTake(SpeechEngine):
        def submit(self, request, priority=None):
            job = super().submit(request, priority)
            if len(self.requests) == 1:  # the user halts while the first take renders
                getattr(renderer, halt)()
            return job

    engine = HaltedOnTheFirstTake({spoilt: ("silence", None)})
    renderer = Renderer(project, engine, in_flight=1)
    if halt == "pause":
        resumed = threading.Timer(1.0, renderer.resume)
        resumed.start()
        outcome = renderer.render(sentence_ids=[sentence.id])
        resumed.join()
        # Resumed: the sentence goes on with its next tries, none made twice.
        assert outcome.state == "finished"
        assert engine.requests == [(spoilt, retake_seed(sentence.seed, a)) for a in range(3)]
        assert [c.attempt for c in project.take_checks(sentence.id)] == [0, 1, 2]
        return
    assert renderer.render(sentence_ids=[sentence.id]).state == "stopped"
    assert engine.requests == [(spoilt, sentence.seed)]  # no more tries while stopping
    assert project.sentence(sentence.id).status == SentenceStatus.PENDING
    engine = SpeechEngine()
    Renderer(project, engine, in_flight=1).render(sentence_ids=[sentence.id])
    assert engine.requests == [(spoilt, retake_seed(sentence.seed, 1))]


def test_a_cancelled_render_sends_no_new_job(tmp_path):
    # cancel() between a flagged take and its re-take: the re-take never reaches the engine.
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    sentence = project.sentences()[1]
    engine = SpeechEngine()
    renderer = Renderer(project, engine, in_flight=1)
    renderer.cancel()
    renderer._submit(sentence, _chapter(sentence), _NoVoice(), queue.Queue(), 1)
    assert engine.requests == [] and renderer._jobs == {}


class _NoVoice:
    def speaker(self, name):
        return None

    def text(self, text):
        return text


def _chapter(sentence):
    from app.narration.render import _Chapter

    return _Chapter(sentence.chapter_id, 0, [], None)
