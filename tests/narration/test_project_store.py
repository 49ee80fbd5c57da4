"""The project file: what goes in comes back, every change is whole or absent, a file is never
overwritten, and what is not a project is refused with a sentence."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from app.narration.project import (
    ExportSettings,
    Project,
    ProjectError,
    SentenceStatus,
    sentence_seed,
)
from app.narration.project import audio as takes_audio
from app.narration.project.schema import SCHEMA_VERSION
from tests.support.narration_books import book, cues, noise, script


@pytest.fixture
def project(tmp_path):
    return Project.create(tmp_path / "book.ctsproj", book(), seed=7)


def test_a_created_project_opens_with_its_document(tmp_path):
    made = Project.create(tmp_path / "cues.ctsproj", cues(), seed=7)
    with Project.open(made.path) as opened:
        assert (opened.title, opened.kind, opened.seed, opened.notices) == (
            "Cues",
            "subtitles",
            7,
            [],
        )
        [chapter] = opened.chapters()
        assert chapter.reference is None
        got = opened.sentences(chapter.id)
        assert [(s.text, s.start, s.end, s.status, s.take_id) for s in got] == [
            ("第一句。", 0.5, 2.0, SentenceStatus.PENDING, None),
            ("第二句。", 2.5, 4.25, SentenceStatus.PENDING, None),
        ]
        assert [s.seed for s in got] == [sentence_seed(7, 0, 0), sentence_seed(7, 0, 1)]


def test_the_books_author_is_kept_and_a_project_without_one_has_none(tmp_path):
    from dataclasses import replace

    Project.create(tmp_path / "a.ctsproj", replace(book(), author="Jane Doe, 李雷"))
    Project.create(tmp_path / "b.ctsproj", book())
    with Project.open(tmp_path / "a.ctsproj") as a, Project.open(tmp_path / "b.ctsproj") as b:
        assert (a.author, b.author) == ("Jane Doe, 李雷", "")


def test_sentence_seeds_follow_the_project_seed_and_the_place(tmp_path):
    a = Project.create(tmp_path / "a.ctsproj", book(), seed=1).sentences()
    b = Project.create(tmp_path / "b.ctsproj", book(), seed=1).sentences()
    c = Project.create(tmp_path / "c.ctsproj", book(), seed=2).sentences()
    assert [s.seed for s in a] == [s.seed for s in b]
    assert len({s.seed for s in a}) == len(a)
    assert [s.seed for s in a] != [s.seed for s in c]


def test_script_speakers_are_kept(tmp_path):
    project = Project.create(tmp_path / "play.ctsproj", script())
    assert [s.speaker for s in project.sentences()] == ["Alice", "Bob", "Alice", None]


def test_a_take_round_trips_as_lossless_24_bit(project):
    first = project.sentences()[0]
    audio = noise(0.75)
    take = project.add_take(first.id, audio, first.seed, worker="test")
    back = project.take_audio(take.id)
    assert back.dtype == np.float32 and len(back) == len(audio)
    assert np.max(np.abs(back - audio)) < 2.0**-22
    assert np.array_equal(back, takes_audio.canonical(audio))
    again = Project.open(project.path).sentences()[0]
    assert (again.status, again.take_id, again.duration) == (SentenceStatus.DONE, take.id, 0.75)
    assert project.takes(first.id) == [take]


def test_choosing_between_takes(project):
    first = project.sentences()[0]
    one = project.add_take(first.id, noise(0.5, 1), first.seed)
    two = project.add_take(first.id, noise(0.25, 2), first.seed, choose=False)
    assert project.sentence(first.id).take_id == one.id
    project.choose_take(first.id, two.id)
    assert (project.sentence(first.id).take_id, project.sentence(first.id).duration) == (
        two.id,
        0.25,
    )
    other = project.sentences()[1]
    with pytest.raises(ProjectError, match="does not belong"):
        project.choose_take(other.id, one.id)


def test_edit_regenerate_lock_speed_and_failure(project):
    first, second = project.sentences()[:2]
    take = project.add_take(first.id, noise(), first.seed)
    project.edit_text(first.id, "  改过的句子。 ")
    edited = project.sentence(first.id)
    assert (edited.text, edited.status, edited.take_id, edited.seed) == (
        "改过的句子。",
        SentenceStatus.PENDING,
        None,
        first.seed,
    )
    assert project.takes(first.id) == [take]  # earlier takes stay to compare

    project.add_take(second.id, noise(), second.seed)
    new_seed = project.regenerate(second.id)
    regenerated = project.sentence(second.id)
    assert new_seed != second.seed and regenerated.seed == new_seed
    assert regenerated.status == SentenceStatus.PENDING and regenerated.take_id is not None
    assert project.regenerate(second.id) not in (new_seed, second.seed)

    project.set_locked(second.id, True)
    for change in (
        lambda: project.edit_text(second.id, "不行。"),
        lambda: project.regenerate(second.id),
        lambda: project.set_speed(second.id, 3),
    ):
        with pytest.raises(ProjectError, match="locked"):
            change()
    project.set_locked(second.id, False)
    project.set_speed(second.id, 3)
    assert project.sentence(second.id).speed == 3
    with pytest.raises(ProjectError, match="Speed"):
        project.set_speed(second.id, 10)
    project.mark_failed(second.id, "It broke.")
    failed = project.sentence(second.id)
    assert (failed.status, failed.error) == (SentenceStatus.FAILED, "It broke.")
    assert second.id not in [s.id for s in project.pending()]
    assert second.id in [s.id for s in project.pending(include_failed=True)]
    with pytest.raises(ProjectError):
        project.edit_text(first.id, "   ")


def test_a_change_is_whole_or_absent(project):
    """A take and the chapter reference it gives are one transaction: a reference that cannot be
    stored leaves no take behind either."""
    first = project.sentences()[0]
    with pytest.raises(ProjectError):
        project.add_take(
            first.id, noise(), first.seed, chapter_reference=("x" * 3_000_000, "t", None)
        )
    assert (
        project.takes(first.id) == []
        and project.sentence(first.id).status == SentenceStatus.PENDING
    )
    project.add_take(first.id, noise(), first.seed, chapter_reference=("codes", "第一句话。", None))
    assert (project.chapters()[0].reference, project.chapters()[0].reference_text) == (
        "codes",
        "第一句话。",
    )


def test_creating_never_overwrites(tmp_path):
    target = tmp_path / "mine.ctsproj"
    target.write_bytes(b"the user's own file")
    with pytest.raises(ProjectError, match="already exists"):
        Project.create(target, book())
    assert target.read_bytes() == b"the user's own file"
    assert [p.name for p in tmp_path.iterdir() if p.name != "studio-home"] == ["mine.ctsproj"]


def test_an_empty_document_is_refused(tmp_path):
    with pytest.raises(ProjectError, match="no sentences"):
        Project.create(tmp_path / "e.ctsproj", book(chapters=(("Empty", ()),)))
    assert not (tmp_path / "e.ctsproj").exists()


@pytest.mark.parametrize("content", [b"", b"hello, not a database" * 10, None])
def test_a_file_that_is_not_a_project_is_a_sentence(tmp_path, content):
    path = tmp_path / "other.ctsproj"
    if content is None:  # another program's SQLite database
        with sqlite3.connect(path) as con:
            con.execute("CREATE TABLE t (x)")
        content = path.read_bytes()
    else:
        path.write_bytes(content)
    with pytest.raises(ProjectError, match="is not a ChatTTS Studio narration project"):
        Project.open(path)
    assert path.read_bytes() == content


def test_a_missing_file_and_a_newer_project(tmp_path, project):
    with pytest.raises(ProjectError, match="does not exist"):
        Project.open(tmp_path / "nowhere.ctsproj")
    with sqlite3.connect(project.path) as con:
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(ProjectError, match="newer ChatTTS Studio"):
        Project.open(project.path)


def test_settings_voices_and_lexicon_round_trip(project):
    assert project.settings() == ExportSettings()
    saved = project.save_settings(format="flac", loudness=-16.0)
    assert Project.open(project.path).settings() == saved
    with pytest.raises(ProjectError, match="loudness"):
        project.save_settings(loudness=12.0)
    assert Project.open(project.path).settings() == saved

    project.set_voice("Alice", seed=42)
    project.set_voice("Bob", speaker="speakerstring")
    voices = Project.open(project.path).voices()
    assert (voices["Alice"].seed, voices["Bob"].speaker) == (42, "speakerstring")
    project.set_voice("Bob")
    assert "Bob" not in project.voices()
    with pytest.raises(ProjectError):
        project.set_voice("Carol", seed=-1)

    project.set_lexicon("ChatTTS", "chat T T S")
    assert Project.open(project.path).lexicon() == {"ChatTTS": "chat T T S"}
    project.set_lexicon("ChatTTS", None)
    assert project.lexicon() == {}


def test_rendered_chapters_give_the_chosen_takes_in_order(project):
    one, two, three = project.sentences(project.chapters()[0].id)
    with pytest.raises(ProjectError, match="3 sentences"):
        project.rendered_chapters()
    audios = [noise(0.25, n) for n in range(3)]
    for sentence, audio in zip((one, two, three), audios):
        project.add_take(sentence.id, audio, sentence.seed)
    [chapter] = project.rendered_chapters([project.chapters()[0].id])
    assert chapter.title == "One" and chapter.sample_rate == 24_000
    assert [s.text for s in chapter.sentences] == ["第一句话。", "第二句话。", "第三句话。"]
    for got, audio in zip(chapter.sentences, audios):
        assert np.array_equal(got.audio, takes_audio.canonical(audio))
