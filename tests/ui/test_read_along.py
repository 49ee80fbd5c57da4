"""Read-along: the sentence the sound card plays is highlighted in the text box, through every
sentence, after pause/resume and after next/previous; a history replay highlights the same way.

The fake sound output plays only when told (FakeOutput.advance), so each step sets where the
"sound card" is and asks the read-along to look (Reading.poll, what its timer does)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.conftest import run_to_end

TEXT = "The first sentence is here. Then a second one follows. And the third ends it."
SENTENCES = [
    "The first sentence is here.",
    "Then a second one follows.",
    "And the third ends it.",
]


def _spans():
    return [(TEXT.index(s), TEXT.index(s) + len(s)) for s in SENTENCES]


def _lengths(output) -> list[int]:
    """Samples per segment of what the output was given, in segment order."""
    lengths: dict[int, int] = {}
    for chunk, (segment, _final) in zip(output.chunks, output.segments):
        lengths[segment] = lengths.get(segment, 0) + len(chunk)
    return [lengths[i] for i in sorted(lengths)]


def _heard(window, position: int):
    """Move the sound card to `position` samples of this stream; the span highlighted."""
    output = window.output
    output.advance(position - output.played_samples())
    window.speech.reading.poll()
    return window.text_panel.highlighted()


def test_the_highlight_follows_the_played_position_through_every_sentence(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    lengths = _lengths(window.output)
    assert len(lengths) == 3 and all(n > 0 for n in lengths)
    spans = _spans()
    start = 0
    for i, length in enumerate(lengths):
        assert _heard(window, start) == spans[i]
        assert _heard(window, start + length - 1) == spans[i]  # its last sample still
        start += length
    # All heard: the highlight goes.
    assert _heard(window, start) is None
    assert not window.speech.reading.active


def test_pause_holds_the_highlight_and_resume_goes_on(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    lengths, spans = _lengths(window.output), _spans()
    assert _heard(window, lengths[0] - 10) == spans[0]
    window.menus.actions["playback.pause"].trigger()
    assert window.output.paused and window.pause_button.text() == "Resume"
    window.output.advance(lengths[1])  # the paused card plays nothing
    window.speech.reading.poll()
    assert window.text_panel.highlighted() == spans[0]
    qtbot.mouseClick(window.pause_button, Qt.MouseButton.LeftButton)
    assert not window.output.paused and window.pause_button.text() == "Pause"
    assert _heard(window, lengths[0] + 5) == spans[1]


def test_next_and_previous_sentence_play_from_its_start(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    lengths, spans = _lengths(window.output), _spans()
    assert _heard(window, 3) == spans[0]
    window.menus.actions["playback.next"].trigger()
    # The output starts again at the second sentence's first sample.
    assert window.output.played_samples() == 0
    assert window.output.segments[0][0] == 1
    assert window.text_panel.highlighted() == spans[1]
    assert _heard(window, lengths[1] + 1) == spans[2]
    window.menus.actions["playback.previous"].trigger()
    assert window.text_panel.highlighted() == spans[1]
    assert _heard(window, lengths[1] - 1) == spans[1]
    assert _heard(window, lengths[1]) == spans[2]
    # Past the last sentence there is nowhere to go: it stays.
    window.read_along.next_sentence()
    assert window.text_panel.highlighted() == spans[2]
    assert window.menus.actions["playback.pause"].shortcut().toString() == "Space"
    assert window.menus.actions["playback.next"].shortcut().toString() == "Alt+Right"
    assert window.menus.actions["playback.previous"].shortcut().toString() == "Alt+Left"


def test_a_history_replay_highlights_the_same_way(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    lengths, spans = _lengths(window.output), _spans()
    entry_id = window.history_panel.selected_id()
    window.text_panel.set_text("Something else entirely.")
    window.history_panel.replay(entry_id)
    assert window.text_panel.text() == TEXT  # the entry's text, to follow it in
    window.text_panel.editor.undo()
    assert window.text_panel.text() == "Something else entirely."
    assert window.text_panel.highlighted() is None  # not the text the audio belongs to
    window.text_panel.editor.redo()
    start = 0
    for i, length in enumerate(lengths):
        assert _heard(window, start + length // 2) == spans[i]
        start += length


def test_ctrl_click_plays_from_the_sentence_clicked(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    spans = _spans()
    window.read_along.play_from_position(spans[2][0] + 3)
    assert window.output.segments[0][0] == 2
    assert window.text_panel.highlighted() == spans[2]


def test_ctrl_click_in_a_new_text_speaks_from_that_sentence(qtbot, window):
    window.text_panel.set_text(TEXT)
    spans = _spans()
    with qtbot.waitSignal(window.speech.finished, timeout=120_000) as finished:
        window.read_along.play_from_position(spans[1][0] + 2)
    request = finished.args[0]
    assert request.text == TEXT[spans[1][0] :]
    qtbot.waitUntil(lambda: not window.is_busy())
    # Its sentences are highlighted where they are in the whole text.
    assert _heard(window, 0) == spans[1]


def test_the_speed_is_kept_and_saved_audio_plays_stretched(qtbot, window, settings):
    run_to_end(qtbot, window, TEXT)
    before = window.output.queued_samples()
    window.menus.actions["speed.2.0"].trigger()
    assert settings.playback_speed == 2.0
    window.history_panel.replay(window.history_panel.selected_id())
    assert abs(window.output.queued_samples() - before / 2) < 0.05 * before
    window.menus.actions["speed.1.0"].trigger()
    assert settings.playback_speed == 1.0


def test_help_lists_every_shortcut_from_the_actions(qtbot, window):
    from app.ui.shortcuts_dialog import ShortcutsDialog, window_shortcuts

    listed = window_shortcuts(window)
    rows = {label: keys for keys, label in listed}
    assert rows["Pause / resume"] == "Space"
    assert rows["Next sentence"] == "Alt+Right"
    assert rows["Previous sentence"] == "Alt+Left"
    assert rows["Stop"] == "Esc"
    assert "Play" in rows and "Open text..." in rows
    dialog = ShortcutsDialog(window)
    qtbot.addWidget(dialog)
    assert dialog.table.rowCount() == len(listed)


def test_space_pauses_while_playing_unless_the_text_box_has_the_focus(qtbot, window):
    run_to_end(qtbot, window, TEXT)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.pause_button.setFocus()
    qtbot.keyClick(window.pause_button, Qt.Key.Key_Space)
    assert window.output.paused
    window.text_panel.editor.setFocus()
    qtbot.keyClick(window.text_panel.editor, Qt.Key.Key_Space)
    assert window.output.paused and window.text_panel.text().count(" ") > TEXT.count(" ")
    # Nothing playing: Space is the focused button's again.
    window.stop()
    laugh = window.text_panel.token_buttons["[laugh]"]
    laugh.setFocus()
    qtbot.keyClick(laugh, Qt.Key.Key_Space)
    assert "[laugh]" in window.text_panel.text() and not window.output.paused
