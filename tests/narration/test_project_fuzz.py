"""Whatever a hostile or damaged file holds in a row, a take or the settings, opening it and
reading it back never raises anything but ProjectError, and what comes back is within its caps."""

from __future__ import annotations

import math
import shutil
import sqlite3
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.core.request import SEED_MAX, SPEED_RANGE
from app.narration.export import ExportSettings
from app.narration.project import Project, ProjectError, SentenceStatus
from app.narration.project.records import MAX_SENTENCE, MAX_TITLE
from tests.support.narration_books import book, noise

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.text(min_size=1, max_size=5).map(lambda t: t * 5000),
    st.binary(max_size=200),
)
SENTENCE_COLUMNS = (
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
TAKE_COLUMNS = ("sentence_id", "seed", "samples", "created", "worker", "audio")
CHAPTER_COLUMNS = ("idx", "title", "reference", "reference_text", "reference_voice")
FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    project = Project.create(tmp_path_factory.mktemp("fuzz") / "t.ctsproj", book())
    for n, sentence in enumerate(project.sentences()[:4]):
        project.add_take(sentence.id, noise(0.2, n), sentence.seed)
    return project.path


def _open_changed(template: Path, sql: str, params) -> Project | None:
    folder = Path(tempfile.mkdtemp(dir=template.parent))  # under pytest's own temporary folders
    path = folder / "p.ctsproj"
    shutil.copy(template, path)
    try:
        with sqlite3.connect(path) as con:
            con.execute(sql, params)
    except (sqlite3.IntegrityError, OverflowError):
        shutil.rmtree(folder)
        return None
    try:
        return Project.open(path)
    except ProjectError:
        return None


def _check(project: Project) -> None:
    assert all(isinstance(n, str) and n for n in project.notices)
    chapters = project.chapters()
    for chapter in chapters:
        assert isinstance(chapter.title, str) and len(chapter.title) <= MAX_TITLE
        assert type(chapter.index) is int
    for s in project.sentences():
        assert isinstance(s.text, str) and 0 < len(s.text) <= MAX_SENTENCE
        assert 0 <= s.seed <= SEED_MAX and SPEED_RANGE[0] <= s.speed <= SPEED_RANGE[1]
        assert isinstance(s.status, SentenceStatus) and isinstance(s.locked, bool)
        for t in (s.start, s.end):
            assert t is None or (isinstance(t, float) and math.isfinite(t) and t >= 0)
        assert (s.take_id is None) == (s.duration is None)
        for take in project.takes(s.id):
            assert take.duration >= 0
            try:
                audio = project.take_audio(take.id)
            except ProjectError:
                continue
            assert audio.dtype == np.float32 and audio.ndim == 1 and np.all(np.isfinite(audio))
    assert isinstance(project.settings(), ExportSettings)


@FUZZ
@given(column=st.sampled_from(SENTENCE_COLUMNS), value=VALUES, row=st.integers(1, 6))
def test_any_sentence_value_reads_back_within_caps(template, column, value, row):
    project = _open_changed(
        template, f"UPDATE sentences SET {column} = ? WHERE id = ?", (value, row)
    )
    assume(project is not None)
    _check(project)


@FUZZ
@given(column=st.sampled_from(TAKE_COLUMNS), value=VALUES, row=st.integers(1, 4))
def test_any_take_value_reads_back_within_caps(template, column, value, row):
    project = _open_changed(template, f"UPDATE takes SET {column} = ? WHERE id = ?", (value, row))
    assume(project is not None)
    _check(project)


@FUZZ
@given(column=st.sampled_from(CHAPTER_COLUMNS), value=VALUES, row=st.integers(1, 2))
def test_any_chapter_value_reads_back_within_caps(template, column, value, row):
    project = _open_changed(
        template, f"UPDATE chapters SET {column} = ? WHERE id = ?", (value, row)
    )
    assume(project is not None)
    _check(project)


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=15), inner, max_size=6)
    ),
    max_leaves=20,
)


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(sorted(ExportSettings.model_fields) + ["other"]), JSON, max_size=8
    )
    | JSON,
    raw=st.booleans(),
)
def test_any_stored_settings_read_back_as_valid_settings(template, data, raw):
    import json

    text = json.dumps(data) if not raw else str(data)
    project = _open_changed(
        template, "INSERT OR REPLACE INTO meta (key, value) VALUES ('settings', ?)", (text,)
    )
    assert project is not None
    settings_read = project.settings()
    assert ExportSettings.model_validate(settings_read.model_dump()) == settings_read
    valid_fields = {
        k: v for k, v in (data.items() if isinstance(data, dict) else ()) if k != "other"
    }
    try:
        expected = ExportSettings.model_validate(valid_fields)
    except Exception:
        expected = None
    if not raw and isinstance(data, dict) and expected is not None:
        assert settings_read == expected and project.notices == []
