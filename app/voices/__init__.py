"""Voices: speaker strings from seeds, and voice files in and out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.voices.importer import IMPORT_FILTER, export_voice, import_voice_file
    from app.voices.speakers import LZMA_ARGS, check_speaker, decode_speaker, speaker_from_seed

__all__ = [
    "IMPORT_FILTER",
    "LZMA_ARGS",
    "check_speaker",
    "decode_speaker",
    "export_voice",
    "import_voice_file",
    "speaker_from_seed",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "IMPORT_FILTER": "app.voices.importer",
        "LZMA_ARGS": "app.voices.speakers",
        "check_speaker": "app.voices.speakers",
        "decode_speaker": "app.voices.speakers",
        "export_voice": "app.voices.importer",
        "import_voice_file": "app.voices.importer",
        "speaker_from_seed": "app.voices.speakers",
    },
)
