"""Where the checker's trained models come from: files shipped inside PyPI packages, found
without importing those packages (resemblyzer's own import needs librosa and pkg_resources;
silero-vad's loads torchaudio helpers we do not use)."""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path

from app.i18n import _

log = logging.getLogger(__name__)

# (package, file inside it)
VAD_MODEL = ("silero_vad", "data/silero_vad.jit")
SPEAKER_MODEL = ("resemblyzer", "pretrained.pt")


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
    if package == VAD_MODEL[0]:
        return _(
            "Takes are not checked: the voice-activity model (the {package} package) is not "
            "installed."
        ).format(package="silero-vad")
    return _(
        "Voices are not compared: the speaker model (the {package} package) is not installed."
    ).format(package=package)


def say_once(package: str) -> str:
    """The sentence for a missing model, logged the first time only; returned every time."""
    sentence = not_checked_sentence(package)
    with _said_lock:
        first = package not in _said
        _said.add(package)
    if first:
        log.warning("%s", sentence)
    return sentence
