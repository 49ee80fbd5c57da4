"""What libraries print themselves goes to a file in the log folder, not to the user's terminal.

PyTorch's C++ code writes its warnings straight to the process's standard error (file
descriptor 2), past Python's `warnings` and logging: "torch.quantize_per_tensor ... deprecated"
was the first line of every `synth`, `narrate` and `serve` run. While a command runs, fd 2 points
at LIBRARY_LOG and `sys.stderr`, where our own sentences go, keeps the terminal
(tests/cli/test_third_party_output.py). A failure is never hidden: a traceback, a crash's
(faulthandler) and Ctrl+C reach the terminal, with a note naming the log when it grew.
"""

from __future__ import annotations

import faulthandler
import io
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from app.core import StudioError
from app.i18n import _

LIBRARY_LOG = "library-output.log"
MAX_LOG_BYTES = 2_000_000  # past this the next command moves it to LIBRARY_LOG + ".1"


def _open_log(target: Path) -> int:
    """The log opened for appending; one past MAX_LOG_BYTES is first kept as ".1" (the one
    before it goes), or emptied where it cannot be renamed (Windows, open in another command)."""
    if target.exists() and target.stat().st_size > MAX_LOG_BYTES:
        try:
            os.replace(target, target.with_name(target.name + ".1"))
        except OSError:
            return os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    return os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _terminal_writer(fd: int, previous) -> io.TextIOWrapper:
    """sys.stderr on `fd`, the terminal. A Windows console is written through the console API
    as Python's own stderr is, else Chinese comes out in the console's code page as mojibake."""
    raw = None
    console_io = getattr(io, "_WindowsConsoleIO", None)
    if sys.platform == "win32" and console_io is not None and os.isatty(fd):
        try:
            raw = console_io(fd, "w", closefd=False)
        except (OSError, ValueError):
            raw = None
    if raw is None:
        raw = io.FileIO(fd, "w", closefd=False)
    return io.TextIOWrapper(
        io.BufferedWriter(raw),
        encoding=previous.encoding,
        errors=previous.errors,
        line_buffering=True,
        write_through=True,
    )


def _real_stderr_fd() -> int | None:
    """2 when sys.stderr writes to fd 2 (a terminal, a pipe, a file); None when it was
    replaced (a test's capture, a windowed build's devnull stand-in)."""
    try:
        return 2 if sys.stderr is not None and sys.stderr.fileno() == 2 else None
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


@contextmanager
def third_party_output_to_log(log_dir: Path | str | None):
    """Within it, fd 2 is LIBRARY_LOG in `log_dir` and sys.stderr still the terminal; both as
    they were after it. Without a writable log folder nothing changes."""
    if log_dir is None:
        yield None
        return
    target = Path(log_dir) / LIBRARY_LOG
    try:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
        log_fd = _open_log(target)
    except OSError:
        yield None
        return
    swap = _real_stderr_fd() is not None
    previous = sys.stderr
    try:
        previous.flush()
    except (AttributeError, OSError, ValueError):
        pass
    try:
        saved = os.dup(2)
    except OSError:  # no fd 2 at all: nothing to keep off a terminal
        os.close(log_fd)
        yield None
        return
    try:
        os.dup2(log_fd, 2)
    finally:
        os.close(log_fd)
    faults_were_on = faulthandler.is_enabled()
    if swap:
        sys.stderr = _terminal_writer(saved, previous)
        # A crash (segmentation fault, abort, fatal Python error) still shows its traceback
        # on the terminal, not only in the log (test_a_crash_still_reaches_the_terminal).
        faulthandler.enable(file=sys.stderr)
    start = _size(target)
    crashed = False
    try:
        yield target
    except BaseException as exc:
        crashed = not isinstance(exc, (StudioError, KeyboardInterrupt, SystemExit))
        raise
    finally:
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        if crashed and _size(target) > start:
            # A crash's traceback comes next; what a library said before it is evidence too
            # (test_a_crash_points_at_what_the_libraries_printed).
            try:
                print(
                    _("Note: what the libraries printed before this failure is in {file}.").format(
                        file=target
                    ),
                    file=sys.stderr,
                )
            except (OSError, ValueError):
                pass
        if swap:
            sys.stderr = previous
            faulthandler.disable()
            if faults_were_on:
                try:
                    faulthandler.enable(file=previous)
                except (AttributeError, OSError, ValueError, RuntimeError):
                    pass
        os.dup2(saved, 2)
        os.close(saved)
