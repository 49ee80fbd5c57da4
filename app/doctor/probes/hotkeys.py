"""Whether a global hotkey can be heard here: the library, the kind of desktop session, and
whether another program already holds the default combination (Ctrl+Alt+R)."""

from __future__ import annotations

import os
import sys

DEFAULT_HOTKEY = "Ctrl+Alt+R"  # the window's default (app/ui/settings.py reads it from here)
_ERROR_CHARS = 300


def session_kind() -> str:
    """ "windows", "macos", "x11", "wayland" (no X server reachable as a fallback) or "none"."""
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    if os.environ.get("WAYLAND_DISPLAY") or os.environ.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "x11" if os.environ.get("DISPLAY") else "none"


def _short(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:_ERROR_CHARS]


def _library() -> str | None:
    """None where pynput loads its backend for this desktop; else why not."""
    try:
        import pynput.keyboard  # noqa: F401  (raises ImportError without a usable backend)
    except Exception as exc:
        return _short(exc)
    return None


def _x11_taken() -> bool | None:
    """Ctrl+Alt+R grabbed by another X client (a grab of our own is refused then)."""
    from Xlib import XK, X, error
    from Xlib.display import Display

    display = Display()
    try:
        root = display.screen().root
        code = display.keysym_to_keycode(XK.string_to_keysym("r"))
        modifiers = X.ControlMask | X.Mod1Mask
        refused = error.CatchError(error.BadAccess)
        root.grab_key(code, modifiers, True, X.GrabModeAsync, X.GrabModeAsync, onerror=refused)
        display.sync()
        taken = refused.get_error() is not None
        if not taken:
            root.ungrab_key(code, modifiers)
            display.sync()
        return taken
    finally:
        display.close()


def _windows_taken() -> bool | None:
    """RegisterHotKey refuses a combination another program registered."""
    import ctypes

    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    mod_alt, mod_control, hotkey_id = 0x0001, 0x0002, 0x5254
    if user32.RegisterHotKey(None, hotkey_id, mod_alt | mod_control, ord("R")):
        user32.UnregisterHotKey(None, hotkey_id)
        return False
    return True


def read_hotkeys() -> dict:
    session = session_kind()
    error = _library()
    taken = None
    if error is None:
        try:
            if session == "x11":
                taken = _x11_taken()
            elif session == "windows":
                taken = _windows_taken()
        except Exception:  # the library listens all the same; only the check is lost
            taken = None
    return {
        "library": error is None,
        "error": error,
        "session": session,
        "hotkey": DEFAULT_HOTKEY,
        "taken": taken,
    }
