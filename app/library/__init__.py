"""The user's library: history, saved voices and the pronunciation dictionary in one SQLite file.

One database in the user data folder (WAL, one transaction per change, a busy timeout so two
running copies of the program share it). Audio files are named from row ids by the program,
and only files the library created inside its own folder are ever deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.library.db import Library, default_library
    from app.library.history import HistoryEntry, HistoryStore
    from app.library.lexicon import PronunciationDictionary
    from app.library.notices import WHOLE_FILE, Notice, NoticeKind
    from app.library.records import MAX_REFERENCE, MAX_SPEAKER, Voice, voice_from_record
    from app.library.take_checks import TakeCheck
    from app.library.voices import VoiceLibrary

__all__ = [
    "MAX_REFERENCE",
    "MAX_SPEAKER",
    "WHOLE_FILE",
    "HistoryEntry",
    "HistoryStore",
    "Library",
    "Notice",
    "NoticeKind",
    "PronunciationDictionary",
    "TakeCheck",
    "Voice",
    "VoiceLibrary",
    "default_library",
    "voice_from_record",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "HistoryEntry": "app.library.history",
        "HistoryStore": "app.library.history",
        "Library": "app.library.db",
        "MAX_REFERENCE": "app.library.records",
        "MAX_SPEAKER": "app.library.records",
        "Notice": "app.library.notices",
        "NoticeKind": "app.library.notices",
        "PronunciationDictionary": "app.library.lexicon",
        "TakeCheck": "app.library.take_checks",
        "Voice": "app.library.records",
        "VoiceLibrary": "app.library.voices",
        "WHOLE_FILE": "app.library.notices",
        "default_library": "app.library.db",
        "voice_from_record": "app.library.records",
    },
)
