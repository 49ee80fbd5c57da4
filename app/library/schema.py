"""The library's tables, by schema version. A migration is a list of statements run in one
transaction together with the new `PRAGMA user_version`, so a crash leaves the old version whole."""

from __future__ import annotations

import sqlite3

from app.core import SchemaError, migrate_schema
from app.i18n import _

MIGRATIONS: dict[int, list[str]] = {
    1: [
        # AUTOINCREMENT: a row id (and so an audio file name) is never used twice.
        """CREATE TABLE history (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            text TEXT NOT NULL, request TEXT NOT NULL, duration REAL NOT NULL,
            created TEXT NOT NULL, device TEXT NOT NULL DEFAULT '',
            synth_seconds REAL NOT NULL DEFAULT 0, test_model INTEGER NOT NULL DEFAULT 0,
            speaker TEXT NOT NULL DEFAULT '')""",
        """CREATE TABLE voices (
            id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
            speaker TEXT NOT NULL DEFAULT '', seed INTEGER, notes TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL DEFAULT '', reference TEXT, reference_text TEXT)""",
        "CREATE TABLE lexicon (word TEXT PRIMARY KEY, replacement TEXT NOT NULL)",
        # Which legacy JSON sources were imported: two copies starting at once import once.
        "CREATE TABLE imports (source TEXT PRIMARY KEY, imported TEXT NOT NULL)",
    ],
    2: [
        # The model's kind in words instead of a flag. The table is rebuilt (SQLite before 3.35,
        # still shipped by some Linux systems, cannot drop a column); a value that was not an
        # integer, skipped on reading before, becomes '' and is skipped still.
        """CREATE TABLE history_v2 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            text TEXT NOT NULL, request TEXT NOT NULL, duration REAL NOT NULL,
            created TEXT NOT NULL, device TEXT NOT NULL DEFAULT '',
            synth_seconds REAL NOT NULL DEFAULT 0, model_kind TEXT NOT NULL DEFAULT 'official',
            speaker TEXT NOT NULL DEFAULT '')""",
        """INSERT INTO history_v2 (id, text, request, duration, created, device, synth_seconds,
            model_kind, speaker)
            SELECT id, text, request, duration, created, device, synth_seconds,
                CASE WHEN typeof(test_model) <> 'integer' THEN ''
                     WHEN test_model = 0 THEN 'official' ELSE 'random-weights' END,
                speaker
            FROM history""",
        # The id sequence goes along: a deleted newest row's id (its audio file's name) is
        # never given out again.
        "DELETE FROM sqlite_sequence WHERE name = 'history_v2'",
        """INSERT INTO sqlite_sequence (name, seq)
            SELECT 'history_v2', seq FROM sqlite_sequence WHERE name = 'history'""",
        "DROP TABLE history",
        "ALTER TABLE history_v2 RENAME TO history",
    ],
    3: [
        # Where each sentence lies in the audio and the text (JSON), for read-along; older
        # results have none ('') and play without highlighting.
        "ALTER TABLE history ADD COLUMN marks TEXT NOT NULL DEFAULT ''",
    ],
    4: [
        # What the take checker found in the result (JSON, library/take_checks.py); older
        # results have none ('': not checked yet).
        "ALTER TABLE history ADD COLUMN take_check TEXT NOT NULL DEFAULT ''",
    ],
}
SCHEMA_VERSION = max(MIGRATIONS)

# The columns each table's rows are written and read by (the row id apart), in the order above:
# every reader and writer of a table takes its list from here.
HISTORY_COLUMNS = (
    "text",
    "request",
    "duration",
    "created",
    "device",
    "synth_seconds",
    "model_kind",
    "speaker",
    "marks",
    "take_check",
)
VOICE_COLUMNS = ("name", "speaker", "seed", "notes", "created", "reference", "reference_text")
LEXICON_COLUMNS = ("word", "replacement")


def migrate(con: sqlite3.Connection, path) -> int:
    """Bring the database up to SCHEMA_VERSION; returns the version it had."""

    def newer(version: int) -> SchemaError:
        return SchemaError(
            _(
                "The library {file} was made by a newer ChatTTS Studio (schema {version}); "
                "update the program to use it."
            ).format(file=path, version=version)
        )

    return migrate_schema(con, MIGRATIONS, newer)
