"""Each table's one column list (schema.py) is the table's columns, in order: every reader and
writer takes its columns from there, so a column added to the schema and not to the list fails
here rather than being silently left out of what is read or imported."""

from __future__ import annotations

from contextlib import closing

import pytest

from app.library import Library
from app.library.schema import HISTORY_COLUMNS, LEXICON_COLUMNS, VOICE_COLUMNS


@pytest.mark.parametrize(
    "table, columns",
    [
        ("history", ("id", *HISTORY_COLUMNS)),
        ("voices", ("id", *VOICE_COLUMNS)),
        ("lexicon", LEXICON_COLUMNS),
    ],
)
def test_a_tables_column_list_is_its_schema(tmp_path, table, columns):
    library = Library(tmp_path)
    with closing(library.connect()) as con:
        found = tuple(name for _cid, name, *_rest in con.execute(f"PRAGMA table_info({table})"))
    assert found == columns


def test_rows_are_read_by_name(tmp_path):
    library = Library(tmp_path)
    with library.transaction() as con:
        con.execute("INSERT INTO lexicon (word, replacement) VALUES ('SQL', 'sequel')")
    [row] = library.named_rows("SELECT replacement, word FROM lexicon")
    assert (row["word"], row["replacement"]) == ("SQL", "sequel")
    assert library.rows("SELECT word FROM lexicon") == [("SQL",)]
