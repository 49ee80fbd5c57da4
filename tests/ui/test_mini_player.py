"""The floating mini-player (optional) while reading from the tray: the sentence heard, Pause,
Stop and Next; only for reads from the tray or the hotkey, gone once all is heard, and its
setting persists.

The fake sound output plays only when told (FakeOutput.advance); Reading.poll is what its
timer does."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from app.ui.settings import Settings
from tests.ui.conftest import RUN_TIMEOUT_MS

TEXT = "The first sentence is here. Then a second one follows. And the third ends it."


@pytest.fixture(autouse=True)
def _clipboard_emptied(qapp):
    yield
    QGuiApplication.clipboard().clear()


def _heard(window, position: int) -> None:
    output = window.output
    output.advance(position - output.played_samples())
    window.speech.reading.poll()


def _play_from_tray(qtbot, window) -> None:
    QGuiApplication.clipboard().setText(TEXT)
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        window.anywhere.menu.actions["tray.play_clipboard"].trigger()


def test_the_mini_player_shows_the_sentence_heard_and_pauses_stops_and_skips(
    qtbot, settings, make_window
):
    settings.mini_player = True
    window = make_window()
    assert not window.anywhere.mini_shown
    _play_from_tray(qtbot, window)
    mini = window.anywhere.mini
    assert mini.isVisible()
    assert mini.sentence.text() == "Getting ready to read..."
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
    assert mini.isVisible()  # the audio still plays after the synthesis ended
    _heard(window, 3)
    assert mini.sentence.text() == "The first sentence is here."
    qtbot.mouseClick(mini.pause, Qt.MouseButton.LeftButton)
    assert window.speech.reading.paused and window.output.paused
    assert mini.pause.text() == "Resume"
    qtbot.mouseClick(mini.pause, Qt.MouseButton.LeftButton)
    assert not window.speech.reading.paused and mini.pause.text() == "Pause"
    qtbot.mouseClick(mini.next, Qt.MouseButton.LeftButton)
    assert window.output.segments[0][0] == 1  # the output starts again at the second
    assert mini.sentence.text() == "Then a second one follows."
    qtbot.mouseClick(mini.stop, Qt.MouseButton.LeftButton)
    assert not mini.isVisible() and not window.speech.reading.active


def test_the_mini_player_goes_once_everything_is_heard(qtbot, settings, make_window):
    settings.mini_player = True
    window = make_window()
    _play_from_tray(qtbot, window)
    qtbot.waitUntil(lambda: not window.is_busy(), timeout=RUN_TIMEOUT_MS)
    assert window.anywhere.mini_shown
    _heard(window, window.output.queued_samples())
    assert not window.anywhere.mini_shown


def test_no_mini_player_when_it_is_off_or_the_read_is_the_window_s(qtbot, settings, make_window):
    window = make_window()  # off by default
    assert settings.mini_player is False
    _play_from_tray(qtbot, window)
    assert not window.anywhere.mini_shown
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        window.anywhere.menu.actions["tray.stop"].trigger()
    settings.mini_player = True
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        window.menus.actions["text.read_clipboard"].trigger()  # the window's own menu
    assert not window.anywhere.mini_shown
    window.stop()


def test_a_hotkey_press_that_stops_shows_nothing_later(qtbot, settings, make_window):
    settings.mini_player = True
    window = make_window()
    QGuiApplication.clipboard().setText(TEXT)
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        window.menus.actions["text.read_clipboard"].trigger()
    with qtbot.waitSignal(window.speech.stopped, timeout=RUN_TIMEOUT_MS):
        window.anywhere.hotkey.pressed.emit()  # the second press: it stops
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        window.menus.actions["text.read_clipboard"].trigger()
    assert not window.anywhere.mini_shown
    window.stop()
    with qtbot.waitSignal(window.speech.started, timeout=RUN_TIMEOUT_MS):
        window.anywhere.hotkey.pressed.emit()  # a press that reads: the player shows
    assert window.anywhere.mini_shown
    window.stop()
    assert not window.anywhere.mini_shown


def test_the_mini_player_setting_persists_and_the_dialog_saves_it(qtbot, settings, make_window):
    assert settings.mini_player is False
    window = make_window(wait_loaded=False)
    window.menus.actions["text.anywhere"].trigger()
    dialog = window.anywhere.dialog
    assert not dialog.mini.isChecked()
    assert dialog.mini.text() == "Show a small player while reading from the tray or the hotkey"
    dialog.mini.setChecked(True)
    dialog.accept()
    assert settings.mini_player is True and Settings().mini_player is True


def test_the_mini_player_follows_a_language_change_and_goes_with_its_window(
    qtbot, settings, make_window
):
    settings.mini_player = True
    closed = make_window()
    _play_from_tray(qtbot, closed)
    closed.close()  # its mini-player is deleted with it
    window = make_window()
    _play_from_tray(qtbot, window)
    window.menus.actions["language.zh_CN"].trigger()  # reaches both windows
    qtbot.waitUntil(lambda: window.play_button.text() == "播放", timeout=5_000)
    assert window.anywhere.mini.pause.text() == "暂停"
    assert window.anywhere.mini.next.text() == "下一句"
    window.menus.actions["language.en"].trigger()
    qtbot.waitUntil(lambda: window.play_button.text() == "Play", timeout=5_000)
    assert window.anywhere.mini.pause.text() == "Pause"
    window.stop()


def test_a_sentence_without_an_end_is_shortened_so_the_player_stays_in_its_corner():
    from app.ui.mini_player import SHOWN_CHARS, shortened

    assert shortened("A short sentence.") == "A short sentence."
    long = "word " * 2000  # clipboard text with no punctuation: one "sentence"
    shown = shortened(long.strip())
    assert len(shown) <= SHOWN_CHARS and shown.endswith("\u2026")
    assert long.startswith(shown[:-1])
