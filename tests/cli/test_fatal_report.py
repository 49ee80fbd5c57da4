"""A crash before the window exists: a windowed Windows build says so in a message box; a
console build prints and exits non-zero (a message box there would hang CI until its timeout)."""

import sys

import pytest

import app.__main__ as entry
from app import bootstrap


@pytest.fixture
def frozen_windows(monkeypatch):
    """sys.platform and sys.frozen as in a PyInstaller build on Windows; a crashing CLI."""
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(bootstrap, "_started_without_console", False)
    boxes = []
    monkeypatch.setattr(entry, "_show_message_box", boxes.append)

    def crash(argv):
        raise RuntimeError("torch DLL failed to load")

    monkeypatch.setattr("app.cli.main", crash)
    return boxes


def test_console_build_prints_and_exits_non_zero(frozen_windows, capsys):
    assert entry.main(["self-test"]) == 3
    assert frozen_windows == []  # nobody would click it
    err = capsys.readouterr().err
    assert "ChatTTS Studio could not start: RuntimeError: torch DLL failed to load" in err
    assert "chattts-studio.log" in err


def test_windowed_build_shows_a_message_box(frozen_windows, monkeypatch):
    # PyInstaller's windowed bootloader (console=False) starts Python with no stdout/stderr.
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    assert entry.main([]) == 3
    assert len(frozen_windows) == 1
    assert frozen_windows[0].startswith("ChatTTS Studio could not start: RuntimeError: torch DLL")
    assert "chattts-studio.log" in frozen_windows[0]
    assert not bootstrap.has_console()


def test_no_message_box_off_windows(frozen_windows, monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    assert entry.main([]) == 3
    assert frozen_windows == []
