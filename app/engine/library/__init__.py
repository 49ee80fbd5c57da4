"""The user's library: history, saved voices and the pronunciation dictionary in one SQLite file.

One database in the user data folder (WAL, one transaction per change, a busy timeout so two
running copies of the program share it). Audio files are named from row ids by the program,
and only files the library created inside its own folder are ever deleted.
"""

from app.engine.library.db import Library, default_library
from app.engine.library.history import HistoryEntry, HistoryStore
from app.engine.library.lexicon import PronunciationDictionary
from app.engine.library.notices import Notice
from app.engine.library.records import Voice
from app.engine.library.voices import VoiceLibrary

__all__ = [
    "HistoryEntry",
    "HistoryStore",
    "Library",
    "Notice",
    "PronunciationDictionary",
    "Voice",
    "VoiceLibrary",
    "default_library",
]
