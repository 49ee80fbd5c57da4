"""On Linux/X11 the window checks Qt's xcb libraries first and names the install command,
instead of Qt aborting the process with a misleading message."""

import pytest

from app import display_check
from app.ui import xcb_check


def _loader(absent):
    def load(name):
        if name in absent:
            raise OSError(f"{name}: cannot open shared object file")
        return object()

    return load


@pytest.mark.parametrize(
    "environ, platform, expected",
    [
        ({"DISPLAY": ":0"}, "linux", True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "xcb;wayland"}, "linux", True),
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "win32", False),
    ],
)
def test_only_an_xcb_start_is_checked(environ, platform, expected):
    assert xcb_check.uses_xcb(environ, platform) is expected


def test_missing_libraries_give_one_install_command_naming_the_right_packages():
    message = xcb_check.problem(
        {"DISPLAY": ":0"}, "linux", _loader({"libxcb-icccm.so.4", "libxcb-keysyms.so.1"})
    )
    assert "libxcb-icccm4, libxcb-keysyms1" in message
    assert message.endswith("sudo apt install libxcb-icccm4 libxcb-keysyms1")
    assert "cursor" not in message  # not the library Qt's own message blames


def test_nothing_is_said_when_everything_is_there_or_no_x_display_is_used():
    assert xcb_check.problem({"DISPLAY": ":0"}, "linux", _loader(set())) is None
    assert xcb_check.problem({}, "linux", _loader(set(xcb_check.XCB_LIBRARIES))) is None


def test_the_window_command_stops_with_the_sentence_and_exit_code_2(monkeypatch, capsys):
    import app.ui.app as ui_app

    monkeypatch.setattr(
        xcb_check, "problem", lambda: "The window cannot open: ... sudo apt install libxcb-icccm4"
    )
    assert ui_app.run_window(None) == 2
    assert "sudo apt install libxcb-icccm4" in capsys.readouterr().err


def test_self_test_fails_its_window_step_with_the_sentence(monkeypatch):
    from app.selftest import steps as selftest

    monkeypatch.setattr(
        xcb_check, "problem", lambda: "The window cannot open: sudo apt install libxcb-icccm4"
    )
    with pytest.raises(RuntimeError, match="sudo apt install libxcb-icccm4"):
        selftest.step_window()


@pytest.mark.parametrize(
    "environ, platform, says",
    [
        ({}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "wayland"}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", False),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "minimal"}, "linux", False),
        ({}, "win32", False),
        ({}, "darwin", False),
    ],
)
def test_no_display_is_found_before_qt_starts(environ, platform, says):
    message = display_check.no_display(environ, platform)
    assert (message is not None) is says
    if says:
        assert message.startswith("The window cannot open: there is no display")


def test_the_window_without_a_display_says_so_in_one_sentence_instead_of_qt_s_abort(tmp_path):
    """A real start in a process: DISPLAY and WAYLAND_DISPLAY unset, Qt's platform not chosen.
    Qt used to abort with exit 134, claiming libxcb-cursor0 was missing."""
    import os
    import subprocess
    import sys

    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env.update(CHATTTS_STUDIO_HOME=str(tmp_path), PYTHONIOENCODING="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "app"], capture_output=True, text=True, timeout=120, env=env
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "error: The window cannot open: there is no display"
    )
