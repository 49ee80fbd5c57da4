"""A take checker that fails, or a damaged record of its findings, never stops narration: the
render goes on unchecked and says why once; a project opens with the bad record skipped."""

from __future__ import annotations

import sqlite3

from app.narration import take_judge
from app.narration.project import Project, SentenceStatus
from app.narration.render import Renderer
from tests.support.take_engine import SpeechEngine, speech_book


def test_a_checker_that_fails_leaves_the_render_unchecked_and_says_why_once(tmp_path, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("silero_vad.jit is damaged")

    monkeypatch.setattr(take_judge, "check_take", broken)
    monkeypatch.setattr(take_judge, "embed", broken)
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    engine = SpeechEngine({})
    outcome = Renderer(project, engine, in_flight=3).render()
    assert outcome.state == "finished" and outcome.done == 7 and outcome.retaken == []
    assert len(outcome.notes) == 1
    assert "take checker failed" in outcome.notes[0] and "damaged" in outcome.notes[0]
    assert len(engine.requests) == 7  # no re-takes of an unchecked take
    assert all(s.check is not None and not s.check.checked for s in project.sentences())


def test_a_findings_record_nested_too_deep_is_skipped_and_the_project_opens(tmp_path):
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    Renderer(project, SpeechEngine({}), in_flight=3).render()
    sentence = project.sentences()[0]
    with sqlite3.connect(project.path) as con:
        con.execute(
            "UPDATE take_checks SET findings = ? WHERE take_id = ?",
            ("[" * 3999, sentence.take_id),
        )
    reopened = Project.open(project.path)
    assert any("take checker" in n for n in reopened.notices)
    assert reopened.sentence(sentence.id).check is None
    assert reopened.sentence(sentence.id).status == SentenceStatus.DONE
