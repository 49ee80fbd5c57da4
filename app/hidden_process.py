"""The one way the program starts a child process (nvidia-smi, wsl.exe, ldconfig, ...).

On Windows a console program started from the windowed app opens its own console window,
which flashes on screen at every start (the doctor runs at start-up); CREATE_NO_WINDOW
stops that. Output decoding never raises: a tool's stray byte must not crash a check.
"""

from __future__ import annotations

import subprocess
import sys

# subprocess.CREATE_NO_WINDOW exists only on Windows builds of Python.
CREATE_NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0x08000000)


def run_hidden(args, **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run with no console window on Windows; same arguments and result."""
    if sys.platform == "win32":
        kwargs["creationflags"] = kwargs.get("creationflags", 0) | CREATE_NO_WINDOW
    if kwargs.get("text") or kwargs.get("universal_newlines") or kwargs.get("encoding"):
        kwargs.setdefault("errors", "replace")
    return subprocess.run(args, **kwargs)
