"""What libraries print themselves goes to a file in the log folder, not to the user's terminal.

PyTorch's C++ code writes its warnings straight to the process's standard error (file
descriptor 2), past Python's `warnings` and logging: "torch.quantize_per_tensor ... deprecated"
was the first line of every `synth`, `narrate` and `serve` run. While a command runs, fd 2 points
at LIBRARY_LOG and `sys.stderr`, where our own sentences go, keeps the terminal
(tests/cli/test_library_output.py).
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import contextmanager
from pathlib import Path

LIBRARY_LOG = "library-output.log"
MAX_LOG_BYTES = 2_000_000    # past this the file starts again at the next command


def _real_stderr_fd() -> int | None:
    """2 when sys.stderr writes to fd 2 (a terminal, a pipe, a file); None when it was
    replaced (a test's capture, a windowed build's devnull stand-in)."""
    try:
        return 2 if sys.stderr is not None and sys.stderr.fileno() == 2 else None
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


@contextmanager
def library_output_to_log(log_dir: Path | str | None):
    """Within it, fd 2 is LIBRARY_LOG in `log_dir` and sys.stderr still the terminal; both as
    they were after it. Without a writable log folder nothing changes."""
    if log_dir is None:
        yield None
        return
    target = Path(log_dir) / LIBRARY_LOG
    try:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
        fresh = target.exists() and target.stat().st_size > MAX_LOG_BYTES
        log_fd = os.open(target, os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if fresh else os.O_APPEND), 0o644)
    except OSError:
        yield None
        return
    swap = _real_stderr_fd() is not None
    previous = sys.stderr
    try:
        previous.flush()
    except (AttributeError, OSError, ValueError):
        pass
    saved = os.dup(2)
    try:
        os.dup2(log_fd, 2)
    finally:
        os.close(log_fd)
    if swap:
        sys.stderr = io.TextIOWrapper(io.FileIO(saved, "w", closefd=False),
                                      encoding=previous.encoding, errors=previous.errors,
                                      line_buffering=True, write_through=True)
    try:
        yield target
    finally:
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        if swap:
            sys.stderr = previous
        os.dup2(saved, 2)
        os.close(saved)
