"""Process start-up that must happen before anything else is imported or logged."""

from __future__ import annotations

import codecs
import logging
import logging.handlers
import os
import sys

from app import paths

LOG_NAME = "chattts-studio.log"


# Set by guard_stdio: a windowed build (or pythonw) starts with sys.stdout/stderr = None.
_started_without_console = False

# Marks we print, and what a legacy code page (cp1252, cp936, cp437) can show instead.
_FALLBACKS = {
    "✓": ("√", "v"),
    "✗": ("×", "x"),
    "⚠": ("!",),
    "→": ("->",),
    "…": ("...",),
    "—": ("-",),
    "–": ("-",),
    "“": ('"',),
    "”": ('"',),
    "‘": ("'",),
    "’": ("'",),
}
ENCODE_FALLBACK = "chattts-studio-fallback"


def _encode_fallback(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a character the stream cannot encode becomes a look-alike or '?'."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for ch in err.object[err.start : err.end]:
        for candidate in _FALLBACKS.get(ch, ()) + ("?",):
            try:
                candidate.encode(err.encoding)
            except (UnicodeEncodeError, LookupError):
                continue
            out.append(candidate)
            break
    return "".join(out), err.end


codecs.register_error(ENCODE_FALLBACK, _encode_fallback)


def make_encodable(stream) -> None:
    """A stream in a legacy code page (a piped stdout on Windows is cp1252 or cp936) raises
    UnicodeEncodeError on ✓ or on a Chinese file name; let it print a stand-in instead."""
    encoding = getattr(stream, "encoding", None)
    if not encoding or not hasattr(stream, "reconfigure"):
        return
    try:
        if codecs.lookup(encoding).name.startswith("utf"):
            return  # every UTF encodes every character we print
    except LookupError:
        pass
    try:
        stream.reconfigure(errors=ENCODE_FALLBACK)
    except (AttributeError, ValueError, OSError):
        pass  # a replaced or closed stream: nothing we can do, and nothing to crash for


def guard_stdio() -> None:
    """A windowed (no console) build has sys.stdout/stderr set to None; writes would crash.
    A console whose code page lacks a character must not crash either."""
    global _started_without_console
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            _started_without_console = True
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives as long as the process)
        else:
            make_encodable(stream)


def has_console() -> bool:
    """False in a windowed build: nobody would see what it prints."""
    return not _started_without_console


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
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=2_000_000, backupCount=3, encoding="utf-8"
        )
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
        logging.getLogger("chattts_studio").critical(
            "unhandled exception", exc_info=(exc_type, exc, tb)
        )
        previous(exc_type, exc, tb)

    sys.excepthook = hook


def bootstrap(verbose: bool = False) -> str | None:
    guard_stdio()
    path = setup_logging(verbose)
    install_excepthook()
    return path
