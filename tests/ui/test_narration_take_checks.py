"""The Narration view marks what the take check found: a warning sign and the reasons on a
flagged sentence's status, a tick on a checked one; "Re-take flagged" renders just those again,
each with its next seed. The real Renderer runs on the worker thread over a stand-in engine
whose takes are real speech (tests/support/take_engine.py), the spoilt ones flagged."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.narration.project import Project
from app.ui.narration.controller import NarrationController
from app.ui.narration.sentence_model import CHECK_ROLE
from app.ui.narration.window import NarrationWindow
from tests.support.take_engine import EN, TEXTS, SpeechEngine, speech_book
from tests.ui.narration_support import FakeModel, FakeSpeech

RUN_MS = 120_000
SPOIL = {TEXTS[EN[1]]: "silence", TEXTS[EN[2]]: "repeated"}


@pytest.fixture
def view(qtbot, tmp_path):
    project = Project.create(tmp_path / "book.ctsproj", speech_book(), seed=9)
    project.set_take_tries(1)  # the flagged takes stay flagged until re-taken
    model = FakeModel(test_model=False)
    model._engine = SpeechEngine(SPOIL)
    controller = NarrationController(model, FakeSpeech())
    window = NarrationWindow(controller)
    qtbot.addWidget(window)
    controller.open(str(project.path))
    window.show()
    yield window
    window.close()
    assert controller.shutdown()


def _checks(view):
    m = view.table_model
    return [m.data(m.index(r, m.STATUS), CHECK_ROLE) for r in range(m.rowCount())]


def _tip(view, row):
    m = view.table_model
    return m.data(m.index(row, m.STATUS), Qt.ItemDataRole.ToolTipRole)


def test_flagged_sentences_are_marked_with_their_reason_and_re_taken(qtbot, view):
    c = view.controller
    assert _checks(view) == [""] * 4 and not view.actions["retake_flagged"].isEnabled()
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        view.actions["render"].trigger()
    # Chapter one: its second and third sentences were spoilt on their (only) try.
    assert _checks(view) == ["checked", "flagged", "flagged", "checked"]
    assert "no speech" in _tip(view, 1) and "far longer" in _tip(view, 2)
    assert _tip(view, 0).startswith("Checked")
    m = view.table_model
    assert m.data(m.index(1, m.STATUS), Qt.ItemDataRole.DecorationRole) is not None
    assert m.data(m.index(1, m.STATUS)) == "Done"  # flagged, not failed: it is exported too
    assert "2 sentence(s) flagged by the take check" in view.status.text()
    assert view.actions["retake_flagged"].isEnabled()

    project = c.project
    before = {s.id: (s.seed, s.take_id) for s in project.sentences()}
    spoilt = {s.id for s in project.sentences() if s.text in SPOIL}
    with qtbot.waitSignal(c.renderEnded, timeout=RUN_MS):
        view.actions["retake_flagged"].trigger()
    qtbot.waitUntil(lambda: _checks(view) == ["checked"] * 4, timeout=5_000)
    after = {s.id: (s.seed, s.take_id) for s in project.sentences()}
    assert {sid for sid in after if after[sid] != before[sid]} == spoilt
    assert all(len(project.takes(sid)) == (2 if sid in spoilt else 1) for sid in after)
    assert not view.actions["retake_flagged"].isEnabled() and c.flagged == set()
    assert "flagged" not in view.status.text()


def test_the_number_of_tries_is_set_in_the_view_and_kept_in_the_project(view):
    assert view.tries.value() == 1 and view.tries.isEnabled()
    view.tries.setValue(4)
    assert Project.open(view.controller.project.path).take_tries() == 4
