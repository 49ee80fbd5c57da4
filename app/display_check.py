"""Before Qt starts on Linux: is there a display to open the window on?

Without DISPLAY or WAYLAND_DISPLAY (an SSH session, a service) Qt aborts the process with exit
134 and a message that blames libxcb-cursor0. Qt-free, so its sentence is in the gettext
catalog (app/ui is not scanned for it).
"""

from __future__ import annotations

import os
import sys

from app.i18n import _

# Qt platform plugins that draw without a display server.
DISPLAYLESS_PLATFORMS = (
    "offscreen",
    "minimal",
    "minimalegl",
    "eglfs",
    "linuxfb",
    "vnc",
    "vkkhrdisplay",
)


def no_display(environ=os.environ, platform: str = sys.platform) -> str | None:
    """A sentence when the window has no display to open on (Linux with neither DISPLAY nor
    WAYLAND_DISPLAY, as in an SSH session, and no display-less Qt platform asked for); Qt would
    abort with exit 134 and blame libxcb-cursor0 (tests/ui/test_xcb_check.py)."""
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen in DISPLAYLESS_PLATFORMS:
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return _(
        "The window cannot open: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set, as in "
        "an SSH session). Start it from a desktop session, or use the command line: {help}"
    ).format(help="chattts-studio --help")
