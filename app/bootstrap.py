"""Process start-up that must happen before anything else is imported or logged."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys

from app import paths

LOG_NAME = "chattts-studio.log"


def guard_stdio() -> None:
    """A windowed (no console) build has sys.stdout/stderr set to None; writes would crash."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))


def setup_logging(verbose: bool = False) -> str | None:
    """Log to a rotating file in the user log dir; return its path (None if unwritable)."""
    root = logging.getLogger()
    if getattr(setup_logging, "_done", False):
        return getattr(setup_logging, "_path", None)
    root.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    path = None
    try:
        log_dir = paths.log_dir()
        log_dir.mkdir(parents=True, exist_ok=True)
        path = str(log_dir / LOG_NAME)
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=2_000_000, backupCount=3,
                                                       encoding="utf-8")
        handler.setFormatter(fmt)
        root.addHandler(handler)
    except OSError:
        path = None  # an unwritable log dir must not stop the program
    if verbose:
        console = logging.StreamHandler(sys.stderr)
        console.setFormatter(fmt)
        root.addHandler(console)
    else:
        # Without a handler of its own, Python prints warnings to stderr; keep them in the file.
        root.addHandler(logging.NullHandler())
    logging.captureWarnings(True)
    setup_logging._done = True
    setup_logging._path = path
    return path


def install_excepthook() -> None:
    previous = sys.excepthook

    def hook(exc_type, exc, tb):
        logging.getLogger("chattts_studio").critical("unhandled exception", exc_info=(exc_type, exc, tb))
        previous(exc_type, exc, tb)

    sys.excepthook = hook


def bootstrap(verbose: bool = False) -> str | None:
    guard_stdio()
    path = setup_logging(verbose)
    install_excepthook()
    return path
