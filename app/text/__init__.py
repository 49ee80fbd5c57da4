"""Text on its way to the model: reading, checking, normalizing, pronunciations, sentences."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.text.control_tokens import BUTTONS, INLINE, only_control_tokens
    from app.text.normalize import normalize as normalize_text
    from app.text.normalize.abbreviations import dot_ends_sentence
    from app.text.normalize.library import load as load_grammars
    from app.text.prepare import (
        MAX_TEXT_CHARS,
        PreparedText,
        check_speakable,
        check_text,
        decode_text,
        prepare_text,
        read_capped,
        read_text_file,
        split_text,
    )
    from app.text.spoken import ChatTTSTextFilter, spoken_segments

__all__ = [
    "BUTTONS",
    "INLINE",
    "MAX_TEXT_CHARS",
    "ChatTTSTextFilter",
    "PreparedText",
    "check_speakable",
    "check_text",
    "decode_text",
    "dot_ends_sentence",
    "load_grammars",
    "normalize_text",
    "only_control_tokens",
    "prepare_text",
    "read_capped",
    "read_text_file",
    "split_text",
    "spoken_segments",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "BUTTONS": "app.text.control_tokens",
        "ChatTTSTextFilter": "app.text.spoken",
        "INLINE": "app.text.control_tokens",
        "MAX_TEXT_CHARS": "app.text.prepare",
        "PreparedText": "app.text.prepare",
        "check_speakable": "app.text.prepare",
        "check_text": "app.text.prepare",
        "decode_text": "app.text.prepare",
        "dot_ends_sentence": "app.text.normalize.abbreviations",
        "load_grammars": "app.text.normalize.library:load",
        "normalize_text": "app.text.normalize:normalize",
        "only_control_tokens": "app.text.control_tokens",
        "prepare_text": "app.text.prepare",
        "read_capped": "app.text.prepare",
        "read_text_file": "app.text.prepare",
        "split_text": "app.text.prepare",
        "spoken_segments": "app.text.spoken",
    },
)
