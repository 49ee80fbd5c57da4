"""A damaged project opens what is intact and says what is not: a truncated file is salvaged
into a recovered copy (the damaged file is left as it was), a take whose audio is garbage and
rows whose values are out of range are left out and named."""

from __future__ import annotations

import hashlib
import sqlite3

import numpy as np
import pytest

from app.narration.project import Project, ProjectError, SentenceStatus
from tests.support.narration_books import book, noise

CHAPTERS = tuple((f"Chapter {c}", tuple(f"第{c}章第{n}句。" for n in range(8))) for c in range(3))


@pytest.fixture
def rendered(tmp_path):
    """A project whose every sentence has a take (noise, which FLAC cannot shrink)."""
    project = Project.create(tmp_path / "book.ctsproj", book(CHAPTERS))
    for n, sentence in enumerate(project.sentences()):
        project.add_take(sentence.id, noise(0.5, n), sentence.seed)
    return project


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_truncated_project_opens_a_recovered_copy(rendered):
    path = rendered.path
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size * 6 // 10)
    before = _digest(path)
    opened = Project.open(path)
    assert _digest(path) == before  # the damaged file is only read
    assert opened.path != path and opened.path.name.startswith("book.recovered")
    assert "is damaged" in opened.notices[0] and str(opened.path) in opened.notices[0]
    sentences = opened.sentences()
    done = [s for s in sentences if s.status == SentenceStatus.DONE]
    assert done and len(done) < 24  # some takes were in the lost part
    for sentence in done:
        assert len(opened.take_audio(sentence.take_id)) == 12_000
    lost = 24 - len(done)
    named = [n for n in opened.notices[1:] if "rendered again" in n or "could not be read" in n]
    assert named, opened.notices
    assert (
        len([s for s in sentences if s.status == SentenceStatus.PENDING]) + (24 - len(sentences))
        == lost
    )
    # The recovered copy is a whole project: it opens again without notices.
    assert Project.open(opened.path).notices == []
    # Opening the damaged file again makes another copy, never over the first.
    again = Project.open(path)
    assert again.path not in (path, opened.path)


def test_a_garbage_take_is_named_and_its_sentence_rendered_again(rendered):
    victim = rendered.sentences()[1]
    with sqlite3.connect(rendered.path) as con:
        con.execute(
            "UPDATE takes SET audio = ? WHERE id = ?",
            (np.random.default_rng(1).bytes(5000), victim.take_id),
        )
    opened = Project.open(rendered.path)
    assert opened.path == rendered.path
    assert opened.notices == [
        "Chapter 1 ('Chapter 0'), sentence 2: its audio is damaged; the sentence "
        "will be rendered again."
    ]
    again = opened.sentence(victim.id)
    assert (again.status, again.take_id) == (SentenceStatus.PENDING, None)
    assert victim.id in [s.id for s in opened.pending()]
    assert opened.takes(victim.id) == []
    with pytest.raises(ProjectError, match="damaged"):
        opened.take_audio(victim.take_id)
    assert sum(s.status == SentenceStatus.DONE for s in opened.sentences()) == 23


def test_a_take_with_a_good_header_and_a_bad_body_is_a_sentence(rendered):
    victim = rendered.sentences()[2]
    with sqlite3.connect(rendered.path) as con:
        blob = con.execute("SELECT audio FROM takes WHERE id = ?", (victim.take_id,)).fetchone()[0]
        con.execute(
            "UPDATE takes SET audio = ? WHERE id = ?", (blob[:200] + b"\0" * 100, victim.take_id)
        )
    opened = Project.open(rendered.path)
    with pytest.raises(ProjectError, match="damaged"):
        opened.take_audio(victim.take_id)
    with pytest.raises(ProjectError):
        opened.rendered_chapters()


@pytest.mark.parametrize(
    "column, value, field",
    [
        ("status", "bogus", "status"),
        ("speed", 99, "speed"),
        ("seed", -1, "seed"),
        ("text", b"\x00blob", "text"),
        ("start", float("inf"), "start"),
        ("locked", 7, "locked"),
        ("text", "x" * 20_000, "text"),
    ],
)
def test_a_bad_row_is_left_out_and_named(rendered, column, value, field):
    victim = rendered.sentences()[3]
    with sqlite3.connect(rendered.path) as con:
        con.execute(f"UPDATE sentences SET {column} = ? WHERE id = ?", (value, victim.id))
    opened = Project.open(rendered.path)
    assert opened.notices == [
        f"Chapter 1 ('Chapter 0'), sentence 4: its field '{field}' is not valid; "
        "the sentence was left out."
    ]
    ids = [s.id for s in opened.sentences()]
    assert victim.id not in ids and len(ids) == 23


def test_a_bad_chapter_row_leaves_out_its_sentences(rendered):
    with sqlite3.connect(rendered.path) as con:
        con.execute("UPDATE chapters SET title = ? WHERE idx = 1", (b"\x00blob",))
    opened = Project.open(rendered.path)
    assert len(opened.chapters()) == 2 and len(opened.sentences()) == 16
    assert any("chapter could not be read" in n for n in opened.notices)
