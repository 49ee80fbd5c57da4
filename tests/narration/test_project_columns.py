"""The project file's column lists (schema.py) are its tables' columns, and Edits works from
what it is given (a store, the project's seed, the shared set of damaged takes), not from
attributes another class sets."""

from __future__ import annotations

from contextlib import closing

import pytest

from app.narration.project import Project, ProjectError, schema, sentence_seed
from app.narration.project.edits import Edits
from app.narration.project.store import Store
from tests.support.narration_books import book


@pytest.mark.parametrize(
    "table, columns",
    [
        ("meta", schema.META_COLUMNS),
        ("chapters", schema.CHAPTER_COLUMNS),
        ("sentences", schema.SENTENCE_COLUMNS),
        ("takes", (*schema.TAKE_COLUMNS, "audio")),  # the audio is read one take at a time
        ("voices", schema.VOICE_COLUMNS),
        ("lexicon", schema.LEXICON_COLUMNS),
    ],
)
def test_a_tables_column_list_is_its_schema(tmp_path, table, columns):
    project = Project.create(tmp_path / "book.ctsproj", book(), seed=7)
    with closing(project.store.connect()) as con:
        found = tuple(name for _cid, name, *_rest in con.execute(f"PRAGMA table_info({table})"))
    assert found == columns


def test_edits_work_from_what_they_are_given(tmp_path):
    path = Project.create(tmp_path / "book.ctsproj", book(), seed=7).path
    first = Project.open(path).sentences()[0]
    bad_takes = {12345}
    edits = Edits(Store(path), 99, bad_takes)
    chapter_index = Project.open(path).chapter(first.chapter_id).index
    assert edits.regenerate(first.id) == sentence_seed(99, chapter_index, first.index, 1)
    with pytest.raises(ProjectError, match="damaged"):
        edits.choose_take(first.id, 12345)
    assert edits.path == path
