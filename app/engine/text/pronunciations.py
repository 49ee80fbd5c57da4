"""The pronunciation dictionary now lives in the library (app.engine.library.lexicon)."""

from app.engine.library.lexicon import PronunciationDictionary

__all__ = ["PronunciationDictionary"]
