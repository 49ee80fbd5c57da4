"""The narration project file (.ctsproj): one SQLite database with chapters, sentences, takes,
voices, lexicon and export settings. See project.py."""

from app.narration.project.checks import TakeCheck, attempt_key, retake_seed
from app.narration.project.edits import CastVoice
from app.narration.project.errors import ProjectError
from app.narration.project.project import DEFAULT_TAKE_TRIES, Project
from app.narration.project.records import Chapter, Sentence, SentenceStatus, Take, sentence_seed
from app.narration.project.settings import ExportSettings

__all__ = [
    "DEFAULT_TAKE_TRIES",
    "CastVoice",
    "Chapter",
    "ExportSettings",
    "Project",
    "ProjectError",
    "Sentence",
    "SentenceStatus",
    "Take",
    "TakeCheck",
    "attempt_key",
    "retake_seed",
    "sentence_seed",
]
