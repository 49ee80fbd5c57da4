"""WeTextProcessing's grammars (the `wetext` package: compiled FSTs run by kaldifst).

Imported on first use, never at start: the import takes about 0.4 s (tests/engine/
test_normalize_library.py holds that the window's modules do not import it).
"""

from __future__ import annotations

import threading
from functools import lru_cache

_lock = threading.Lock()
# One reading at a time: the preview and the engine's thread may both read, and kaldifst's
# FSTs are not documented as safe to share between threads.
_reading = threading.Lock()
_normalizers: dict[str, object] = {}


def _normalizer(lang: str):
    with _lock:
        if lang not in _normalizers:
            from wetext import Normalizer

            _normalizers[lang] = Normalizer(lang=lang, operator="tn")
        return _normalizers[lang]


def load() -> None:
    """Load both grammars now (about 0.4-1 s), so that the first number read does not wait:
    `Synthesizer.finish_loading` calls this once the model is ready."""
    _normalizer("zh")
    _normalizer("en")


# The preview reads the text again on every keystroke: a clause already read costs nothing.
@lru_cache(maxsize=4096)
def library_normalize(text: str, lang: str) -> str:
    """`text` as wetext's `lang` ("zh" or "en") grammar reads it, its outer spaces kept."""
    if not text.strip():
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    normalizer = _normalizer(lang)
    with _reading:
        try:
            return lead + normalizer.normalize(text) + trail
        except AssertionError:
            # wetext asserts on a text its grammar leaves empty (`@12`): left as written.
            return text
