"""Read-along in the Narration view: while "Play from here" plays, the row of the sentence the
sound card plays is in bold, selected and in view, through every sentence, after pause/resume
and after next/previous sentence (the view's own Space, Alt+Right and Alt+Left); Stop clears it.

The window's real SpeechController plays into a recording fake sound output whose played
position moves only when told (FakeOutput.advance); Reading.poll is what its timer does."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QObject, Qt, Signal

from app.selftest.fake_audio import FakeOutput
from app.ui.controllers.speech import SpeechController
from app.ui.narration.controller import PLAY_GAP_S, NarrationController
from app.ui.narration.window import NarrationWindow
from tests.ui.narration_support import FakeModel, make_project, tone

RATE = 24_000
SECONDS = (0.5, 0.25, 0.75)  # each sentence's take
GAP = int(RATE * PLAY_GAP_S)


class _Worker(QObject):
    """The synthesis worker's signals, none of them ever sent: only saved audio plays here."""

    chunkReady = Signal(object)
    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    cancelled = Signal(int)
    referenceReady = Signal(str, str, str)
    referenceFailed = Signal(str)


class _WorkerThread:
    def __init__(self):
        self.worker = _Worker()


@pytest.fixture
def view(qtbot, tmp_path):
    project = make_project(tmp_path / "book.ctsproj")
    for s, seconds in zip(project.sentences(project.chapters()[0].id), SECONDS, strict=True):
        project.add_take(s.id, tone(seconds, 0.2), seed=s.seed)
    output = FakeOutput()
    speech = SpeechController(_WorkerThread(), FakeModel(), output)
    controller = NarrationController(FakeModel(), speech)
    window = NarrationWindow(controller)
    qtbot.addWidget(window)
    controller.open(str(project.path))
    window.show()
    qtbot.waitExposed(window)
    window.output = output
    yield window
    window.close()
    assert controller.shutdown()


def _heard(view, position: int):
    """Move the sound card to `position` samples of what plays; the row in bold (or None)."""
    output = view.output
    output.advance(position - output.played_samples())
    view.controller.speech.reading.poll()
    return _bold_row(view)


def _bold_row(view):
    m = view.table_model
    bold = [
        r
        for r in range(m.rowCount())
        if (font := m.data(m.index(r, m.TEXT), Qt.ItemDataRole.FontRole)) is not None
        and font.bold()
    ]
    assert len(bold) <= 1
    return bold[0] if bold else None


def _lengths() -> list[int]:
    return [int(RATE * s) + GAP for s in SECONDS]


def test_the_row_heard_follows_the_played_position_through_every_sentence(view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    assert view.controller.speech.reading.active
    start = 0
    for row, length in enumerate(_lengths()):
        assert _heard(view, start) == row
        assert view.selected_sentence().id == view.table_model.sentence(row).id  # selected too
        assert _heard(view, start + length - 1) == row  # its last sample (in the gap) still
        start += length
    assert _heard(view, start) is None  # all heard: no row in bold any more
    assert not view.controller.speech.reading.active


def test_playing_from_a_later_sentence_maps_segments_to_its_rows(view):
    view.table.selectRow(1)
    view.actions["play_from"].trigger()
    assert _bold_row(view) == 1
    lengths = _lengths()
    assert _heard(view, lengths[1] + 3) == 2


def test_pause_holds_the_row_and_resume_goes_on(view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    lengths = _lengths()
    assert _heard(view, lengths[0] - 10) == 0
    view.transport["pause_playback"].trigger()
    assert view.output.paused
    view.output.advance(lengths[1])  # a paused card plays nothing
    view.controller.speech.reading.poll()
    assert _bold_row(view) == 0
    view.transport["pause_playback"].trigger()
    assert not view.output.paused
    assert _heard(view, lengths[0] + 5) == 1


def test_next_and_previous_sentence_move_the_row(view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    lengths = _lengths()
    assert _heard(view, 3) == 0
    view.transport["next_sentence"].trigger()
    assert view.output.played_samples() == 0 and view.output.segments[0][0] == 1
    assert _bold_row(view) == 1 and view.table.currentIndex().row() == 1
    assert _heard(view, lengths[1] + 1) == 2
    view.transport["previous_sentence"].trigger()
    assert _bold_row(view) == 1
    assert _heard(view, lengths[1] + 1) == 2
    assert _heard(view, lengths[1] + lengths[2]) is None


def test_the_keys_are_the_main_window_s(view):
    assert [view.transport[n].shortcut().toString() for n in view.transport] == [
        "Space",
        "Alt+Right",
        "Alt+Left",
    ]


def test_stop_clears_the_row_heard(view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    assert _heard(view, 10) == 0
    view.actions["stop"].trigger()
    assert _bold_row(view) is None and not view.controller.speech.reading.active


def test_an_edit_in_progress_keeps_its_row_and_focus(qtbot, view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    view.actions["edit"].trigger()  # the first sentence's text is being edited
    assert view.table.state() == view.table.State.EditingState
    assert _heard(view, _lengths()[0] + 1) == 1  # the next sentence is in bold...
    assert view.table.state() == view.table.State.EditingState  # ...and the edit goes on
    assert view.table.currentIndex().row() == 0


def test_another_play_is_not_followed(view):
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    assert _heard(view, 10) == 0
    take = view.table_model.sentence(1).take_id
    view.controller.play_take(take)  # one take, not the chapter: no row is heard
    assert _bold_row(view) is None
    assert _heard(view, 100) is None


def _play_from_the_focused_table(view) -> None:
    view.table.selectRow(0)
    view.actions["play_from"].trigger()
    view.activateWindow()
    view.table.setFocus()


def test_space_and_alt_arrows_pressed_in_the_table(qtbot, view):
    _play_from_the_focused_table(view)
    qtbot.keyClick(view.table, Qt.Key.Key_Space)
    assert view.output.paused
    qtbot.keyClick(view.table, Qt.Key.Key_Space)
    assert not view.output.paused
    qtbot.keyClick(view.table, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert _bold_row(view) == 1
    qtbot.keyClick(view.table, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert _bold_row(view) == 0


def test_the_main_window_s_space_rule_stays_in_the_main_window(qtbot, view, make_window):
    """The main window keeps Space for the focused widget while it plays nothing; that rule
    must not take Space from the Narration window, which plays on its own."""
    make_window(start=False)
    _play_from_the_focused_table(view)
    qtbot.keyClick(view.table, Qt.Key.Key_Space)
    assert view.output.paused
