"""Before Qt starts on Linux/X11: the system libraries its xcb platform plugin needs.

Without one of them Qt aborts the process (exit 134) with a message that names the wrong
library ("xcb-cursor0 or libxcb-cursor0 is needed" also when libxcb-icccm4 is what is
missing). Found first, the user gets the one install command instead.
"""

from __future__ import annotations

import ctypes
import os
import sys

# Libraries of PySide6's libqxcb.so and libQt6XcbQpa.so.6 that a desktop may lack (from
# `ldd`), with the Debian/Ubuntu package of each.
XCB_LIBRARIES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}


def uses_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """Whether Qt will pick its xcb plugin: Linux with an X display, unless told otherwise
    or on a Wayland session (where Qt takes its wayland plugin first)."""
    if not platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "")
    if chosen:
        return chosen.split(";")[0].startswith("xcb")
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def missing_packages(load=ctypes.CDLL) -> list[str]:
    missing = []
    for soname, package in XCB_LIBRARIES.items():
        try:
            load(soname)
        except OSError:
            missing.append(package)
    return missing


def problem(environ=os.environ, platform: str = sys.platform, load=ctypes.CDLL) -> str | None:
    """A sentence with the install command, or None when the window can open."""
    if not uses_xcb(environ, platform):
        return None
    missing = missing_packages(load)
    if not missing:
        return None
    return (
        "The window cannot open: Qt needs these system libraries, which are not installed: "
        f"{', '.join(missing)}. Install them with: sudo apt install {' '.join(missing)}"
    )
