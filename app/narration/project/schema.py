"""The project file's tables, by schema version, and how an older file is brought up to date.

A migration runs in one transaction together with the new `PRAGMA user_version`, so a crash
leaves the old version whole. `PRAGMA application_id` marks the file as ours: an SQLite file
of another program is refused rather than changed.
"""

from __future__ import annotations

import sqlite3

from app.core import migrate_schema
from app.i18n import _
from app.narration.project.errors import ProjectError

APPLICATION_ID = 0x43545350  # "CTSP"
MIGRATIONS: dict[int, list[str]] = {
    1: [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # AUTOINCREMENT: an id the window or a take refers to is never reused.
        """CREATE TABLE chapters (
            id INTEGER PRIMARY KEY AUTOINCREMENT, idx INTEGER NOT NULL, title TEXT NOT NULL,
            reference TEXT, reference_text TEXT, reference_voice TEXT)""",
        """CREATE TABLE sentences (
            id INTEGER PRIMARY KEY AUTOINCREMENT, chapter_id INTEGER NOT NULL, idx INTEGER NOT NULL,
            text TEXT NOT NULL, speaker TEXT, start REAL, end REAL,
            seed INTEGER NOT NULL, speed INTEGER NOT NULL DEFAULT 5,
            status TEXT NOT NULL DEFAULT 'pending', locked INTEGER NOT NULL DEFAULT 0,
            error TEXT, take_id INTEGER, generation INTEGER NOT NULL DEFAULT 0)""",
        "CREATE INDEX sentences_order ON sentences (chapter_id, idx)",
        """CREATE TABLE takes (
            id INTEGER PRIMARY KEY AUTOINCREMENT, sentence_id INTEGER NOT NULL,
            seed INTEGER NOT NULL, samples INTEGER NOT NULL, created TEXT NOT NULL,
            worker TEXT, audio BLOB NOT NULL)""",
        "CREATE INDEX takes_sentence ON takes (sentence_id)",
        "CREATE TABLE voices (name TEXT PRIMARY KEY, seed INTEGER, speaker TEXT)",
        "CREATE TABLE lexicon (word TEXT PRIMARY KEY, replacement TEXT NOT NULL)",
    ],
    # Each try of a sentence and what the take checker found in it (issue 42): a take with no
    # row here was made before takes were checked.
    2: [
        """CREATE TABLE take_checks (
            take_id INTEGER PRIMARY KEY, sentence_id INTEGER NOT NULL, attempt_key TEXT NOT NULL,
            attempt INTEGER NOT NULL, checked INTEGER NOT NULL, score REAL NOT NULL,
            speech_seconds REAL NOT NULL, findings TEXT NOT NULL)""",
        "CREATE INDEX take_checks_sentence ON take_checks (sentence_id)",
    ],
}
SCHEMA_VERSION = max(MIGRATIONS)

# The columns each table's rows are read and written by, in the order above: every reader and
# writer of a table takes its list from here, and reads a row's fields by these names.
META_COLUMNS = ("key", "value")
CHAPTER_COLUMNS = ("id", "idx", "title", "reference", "reference_text", "reference_voice")
SENTENCE_COLUMNS = (
    "id",
    "chapter_id",
    "idx",
    "text",
    "speaker",
    "start",
    "end",
    "seed",
    "speed",
    "status",
    "locked",
    "error",
    "take_id",
    "generation",
)
# A take's audio (up to 48 MB) is not among them: it is read by itself, one take at a time.
TAKE_COLUMNS = ("id", "sentence_id", "seed", "samples", "created", "worker")
VOICE_COLUMNS = ("name", "seed", "speaker")
LEXICON_COLUMNS = ("word", "replacement")
TAKE_CHECK_COLUMNS = (
    "take_id",
    "sentence_id",
    "attempt_key",
    "attempt",
    "checked",
    "score",
    "speech_seconds",
    "findings",
)


def initialize(con: sqlite3.Connection) -> None:
    """A new file: every table, our application id, the current version (one transaction)."""
    con.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    migrate(con, "")


def migrate(con: sqlite3.Connection, path) -> int:
    """Bring the file up to SCHEMA_VERSION; returns the version it had."""

    def newer(version: int) -> ProjectError:
        return ProjectError(
            _(
                "The narration project {file} was made by a newer ChatTTS Studio "
                "(schema {version}); update the program to open it."
            ).format(file=path, version=version)
        )

    return migrate_schema(con, MIGRATIONS, newer)
