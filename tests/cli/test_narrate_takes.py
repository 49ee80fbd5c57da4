"""`narrate` says what the take checks came to: sentences re-taken and those still flagged,
with their reasons, on the terminal and in --json; the export goes on and lists the flagged
ones. The takes are real speech from a stand-in engine (tests/support/take_engine.py)."""

from __future__ import annotations

import json

import pytest

from app.cli import main
from app.core import ModelKind
from app.narration.project import Project
from tests.support.take_engine import EN, TEXTS, ZH, SpeechEngine, speech_book

SPOIL = {TEXTS[EN[1]]: "silence", TEXTS[ZH[1]]: ("repeated", None)}


@pytest.fixture
def speech_engine(monkeypatch):
    """narrate renders on the stand-in engine, its model folder taken for the official model."""
    from app.cli import narrate_engine
    from app.model import ModelStore

    class Engines:
        in_process = True

        def __init__(self):
            self.engine = SpeechEngine(SPOIL)
            self.notes: list[str] = []

        def notices(self):
            return []

        def close(self):
            pass

    monkeypatch.setattr(narrate_engine, "open_engine", lambda args, root: Engines())
    monkeypatch.setattr(ModelStore, "model_kind", property(lambda self: ModelKind.OFFICIAL))


def run(tmp_path, tiny_model, capsys, *extra):
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    out = tmp_path / "book.wav"
    code = main(
        ["narrate", "--project", str(project.path), "-o", str(out), "--model", str(tiny_model)]
        + list(extra)
    )
    captured = capsys.readouterr()
    return code, captured.out, captured.err, project


def test_narrate_json_carries_the_take_summary(tmp_path, tiny_model, capsys, speech_engine):
    code, stdout, stderr, project = run(tmp_path, tiny_model, capsys, "--json")
    assert code == 0, stderr
    done = json.loads(stdout.splitlines()[-1])
    assert done["event"] == "done" and done["test_model"] is False
    takes = done["takes"]
    sentences = {s.text: s for s in project.sentences()}
    assert takes["checked"] == 7 and takes["retaken"] == 2
    assert sorted(takes["retaken_sentences"]) == sorted(sentences[t].id for t in SPOIL)
    [flagged] = takes["flagged"]
    assert flagged["sentence_id"] == sentences[TEXTS[ZH[1]]].id
    assert (flagged["chapter_number"], flagged["sentence_number"]) == (2, 2)
    assert flagged["kinds"] == ["too_long"]
    assert flagged["reasons"] and all(r.endswith(".") for r in flagged["reasons"])
    # Export refuses nothing and lists the flagged sentence in its report (counted from 0).
    assert [(f["chapter"], f["sentence"]) for f in done["flagged"]] == [(1, 1)]
    assert done["flagged"][0]["reasons"] == flagged["reasons"]


def test_tries_is_kept_in_the_project(tmp_path, tiny_model, capsys, speech_engine):
    from app.cli import narrate
    from app.narration.project import project as project_module

    assert narrate.TAKE_TRIES_RANGE == project_module.TAKE_TRIES_RANGE
    code, stdout, stderr, project = run(tmp_path, tiny_model, capsys, "--tries", "1", "--json")
    assert code == 0, stderr
    takes = json.loads(stdout.splitlines()[-1])["takes"]
    assert takes["retaken"] == 0 and len(takes["flagged"]) == 2  # one try: both stay flagged
    assert Project.open(project.path).take_tries() == 1
    with pytest.raises(SystemExit) as exit_:
        main(["narrate", "--project", "x.ctsproj", "-o", "x.wav", "--tries", "0"])
    assert exit_.value.code == 2 and "--tries must be between 1 and 10" in capsys.readouterr().err


def test_narrate_prints_the_take_summary(tmp_path, tiny_model, capsys, speech_engine):
    code, stdout, stderr, _project = run(tmp_path, tiny_model, capsys)
    assert code == 0, stderr
    assert "Takes checked: 2 sentences re-taken, 1 still flagged." in stdout
    assert "Chapter 2, sentence 2: The take is far longer than its text needs" in stdout
