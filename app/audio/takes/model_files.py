"""Where the voice-activity model comes from: a file shipped inside the silero-vad package,
found without importing it (its import loads torchaudio helpers we do not use). The speaker
encoder's weights ship with us (speaker.py)."""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path

from app.i18n import _

log = logging.getLogger(__name__)

# (package, file inside it)
VAD_MODEL = ("silero_vad", "data/silero_vad.jit")


class TakeModelMissing(RuntimeError):
    """A model package is not installed: the checker says so once and checks what it can."""


def model_file(package: str, relative: str) -> Path:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in folders:
        path = Path(folder) / relative
        if path.is_file():
            return path
    raise TakeModelMissing(package)


_said: set[str] = set()
_said_lock = threading.Lock()


def not_checked_sentence(package: str) -> str:
    # silero-vad is the one model package: the sentence names its distribution.
    return _(
        "Takes are not checked: the voice-activity model (the {package} package) is not installed."
    ).format(package="silero-vad")


def say_once(package: str) -> str:
    """The sentence for a missing model, logged the first time only; returned every time."""
    sentence = not_checked_sentence(package)
    with _said_lock:
        first = package not in _said
        _said.add(package)
    if first:
        log.warning("%s", sentence)
    return sentence
