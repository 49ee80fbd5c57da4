"""`chattts-studio narrate` in process on the tiny model: a book becomes audio, subtitles and a
project; the same command continues a project; Ctrl+C saves it and exits 130; mistakes are
one sentence before the model loads."""

from __future__ import annotations

import json
import os
import signal

import pytest
import soundfile as sf

from app.cli import main

BOOK = (
    "Chapter 1\n\nThe road was long. They walked until noon.\n\n"
    "Chapter 2\n\nAt the bridge they rested. Then the rain came.\n"
)


def narrate(args, capsys):
    code = main(["narrate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def takes(project) -> int:
    """Sentences of the project with a chosen take."""
    from app.narration.project import Project

    return sum(1 for s in Project.open(project).sentences() if s.take_id is not None)


@pytest.fixture
def book(tmp_path):
    path = tmp_path / "book.txt"
    path.write_text(BOOK, encoding="utf-8")
    return path


def test_a_book_becomes_audio_subtitles_and_a_project(tiny_model, book, tmp_path, capsys):
    out = tmp_path / "book.wav"
    code, stdout, stderr = narrate(
        [
            str(book),
            "-o",
            str(out),
            "--model",
            str(tiny_model),
            "--no-refine",
            "--subtitles",
            "srt",
            "--seed",
            "3",
            "--json",
        ],
        capsys,
    )
    assert code == 0, stderr
    lines = events(stdout)
    assert lines[0] == {
        "event": "start",
        "project": str(tmp_path / "book.ctsproj"),
        "done": 0,
        "total": 4,
        "resumed": False,
    }
    progress = [e for e in lines if e["event"] == "progress"]
    assert [e["done"] for e in progress][-1] == 4 and all(e["total"] == 4 for e in progress)
    assert [e["done"] for e in progress] == sorted(e["done"] for e in progress)
    done = lines[-1]
    assert done["event"] == "done" and done["test_model"] is True
    audio = next(f for f in done["files"] if f["kind"] == "audio")
    info = sf.info(str(out))
    assert audio["path"] == str(out) and info.samplerate == audio["sample_rate"]
    assert audio["duration"] == pytest.approx(info.frames / info.samplerate, abs=1e-6)
    assert len(audio["chapter_starts"]) == 2 and len(audio["sentences"]) == 4
    cues = (tmp_path / "book.srt").read_text(encoding="utf-8").strip().split("\n\n")
    assert len(cues) == 4 and "The road was long." in cues[0]
    assert takes(tmp_path / "book.ctsproj") == 4


def test_an_epub_from_pandoc_reads_no_title_page_and_its_author_is_the_m4b_artist(
    tiny_model, tmp_path, capsys
):
    import av

    from tests.narration.test_inputs_formats import PANDOC_TITLE_PAGE, make_book_with_front_page

    book = make_book_with_front_page(
        tmp_path / "book.epub", "text/title_page.xhtml", PANDOC_TITLE_PAGE, ("Jane Doe", "李雷")
    )
    out = tmp_path / "book.m4b"
    code, stdout, stderr = narrate(
        [
            str(book),
            "-o",
            str(out),
            "--model",
            str(tiny_model),
            "--no-refine",
            "--seed",
            "3",
            "--json",
        ],
        capsys,
    )
    assert code == 0, stderr
    with av.open(str(out)) as container:
        assert container.metadata["artist"] == "Jane Doe, 李雷"
        assert container.metadata["title"] == "A Test Book"
        assert [c["metadata"]["title"] for c in container.chapters()] == ["The Start", "第二章"]


def test_the_same_command_again_continues_the_project_and_renders_nothing(
    tiny_model, book, tmp_path, capsys
):
    out = tmp_path / "book.wav"
    args = [str(book), "-o", str(out), "--model", str(tiny_model), "--no-refine", "--json"]
    assert narrate(args, capsys)[0] == 0
    first = out.read_bytes()
    code, stdout, stderr = narrate(args, capsys)
    assert (
        code == 2 and "already exists" in stderr and "--overwrite" in stderr
    )  # never replaced silently
    code, stdout, stderr = narrate([*args, "--overwrite"], capsys)
    assert code == 0, stderr
    lines = events(stdout)
    start = next(e for e in lines if e["event"] == "start")
    assert start["resumed"] is True and start["done"] == 4
    assert not [e for e in lines if e["event"] == "progress"]
    assert any("is not read again" in e.get("message", "") for e in lines)
    assert out.read_bytes() == first and takes(tmp_path / "book.ctsproj") == 4


def test_ctrl_c_keeps_the_finished_sentences_exits_130_and_the_next_run_completes(
    tiny_model, book, tmp_path, capsys, monkeypatch
):
    from app.cli import narrate_progress

    original = narrate_progress.Reporter.progress

    def ctrl_c_after_the_first_sentence(self, p):
        original(self, p)
        if p.done == 1:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(narrate_progress.Reporter, "progress", ctrl_c_after_the_first_sentence)
    out = tmp_path / "book.mp3"
    args = [str(book), "-o", str(out), "--model", str(tiny_model), "--no-refine"]
    code, _stdout, stderr = narrate(args, capsys)
    project = tmp_path / "book.ctsproj"
    assert code == 130 and "Run the same command again" in stderr and "Traceback" not in stderr
    assert not out.exists() and 1 <= takes(project) < 4
    monkeypatch.setattr(narrate_progress.Reporter, "progress", original)
    code, stdout, stderr = narrate(args, capsys)
    assert code == 0, stderr
    assert "Continuing" in stderr and "Wrote" in stdout and sf.info(str(out)).duration > 0
    assert takes(project) == 4


def test_chapters_none_and_a_script_input(tiny_model, tmp_path, capsys):
    script = tmp_path / "scene.txt"
    script.write_text("Alice: Where were you?\nBob: At the station.\n", encoding="utf-8")
    out = tmp_path / "scene.wav"
    code, stdout, _ = narrate(
        [
            str(script),
            "-o",
            str(out),
            "--model",
            str(tiny_model),
            "--no-refine",
            "--chapters",
            "none",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    from app.narration.project import Project

    assert [s.speaker for s in Project.open(tmp_path / "scene.ctsproj").sentences()] == [
        "Alice",
        "Bob",
    ]
    assert (
        len(next(f for f in events(stdout)[-1]["files"] if f["kind"] == "audio")["chapter_starts"])
        == 1
    )


@pytest.mark.parametrize(
    "make, args, message",
    [
        (None, ["missing.txt"], "does not exist"),
        ("book.pdf", ["book.pdf"], "PDF file"),
        ("book.txt", ["book.txt", "--voice", "Nobody"], "no saved voice named Nobody"),
        (None, ["--project", "none.ctsproj"], "give the INPUT file"),
        ("book.txt", ["book.txt", "--format", "flac"], "suffix of wav"),
        ("out.wav", ["out.wav"], "is also the file"),
    ],
)
def test_mistakes_are_one_sentence_and_leave_no_project(
    make, args, message, tiny_model, tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    if make:
        (tmp_path / make).write_bytes(BOOK.encode() if make.endswith(".txt") else b"%PDF-1.7")
    code, _stdout, stderr = narrate([*args, "-o", "out.wav", "--model", str(tiny_model)], capsys)
    assert (
        code == 2
        and message in stderr
        and stderr.startswith("error: ")
        and "Traceback" not in stderr
    )
    assert not list(tmp_path.glob("*.ctsproj"))


def test_script_speakers_and_voice_get_the_saved_voices_of_their_names(tmp_path):
    from argparse import Namespace

    from app.cli.narrate import _map_speakers, _narrator
    from app.library.voices import Voice, VoiceLibrary
    from app.narration.inputs import read_source
    from app.narration.project import Project

    VoiceLibrary().save(Voice(name="Alice", speaker="alice-speaker", seed=5))
    VoiceLibrary().save(Voice(name="Narrator", speaker="narrator-speaker", seed=9))
    script = tmp_path / "scene.txt"
    script.write_text("Alice: Where were you?\nBob: At the station.\n", encoding="utf-8")
    document = read_source(script)
    project = Project.create(tmp_path / "scene.ctsproj", document)
    _map_speakers(project, document)
    voices = project.voices()
    assert set(voices) == {"Alice"}  # Bob has no saved voice: the narrator reads him
    assert (voices["Alice"].speaker, voices["Alice"].seed) == ("alice-speaker", 5)
    assert _narrator(Namespace(voice="Narrator", seed=None)) == (9, "narrator-speaker")
    assert _narrator(Namespace(voice=None, seed=4)) == (4, None)


def _project_file_stops_growing(monkeypatch):
    """SQLite's own "database or disk is full": every connection may not grow the file."""
    import sqlite3

    from app.core import sqlite_file

    real = sqlite_file.connect

    def full(path):
        con = real(path)
        if str(path).endswith(".ctsproj"):
            pages = con.execute("PRAGMA page_count").fetchone()[0]
            con.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        return con

    monkeypatch.setattr(sqlite_file, "connect", full)
    return sqlite3


def _take_write_raises_enospc(monkeypatch):
    import errno

    from app.narration.project import Project

    def no_space(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Project, "add_take", no_space)


@pytest.mark.parametrize(
    "fill", [_project_file_stops_growing, _take_write_raises_enospc], ids=["SQLITE_FULL", "ENOSPC"]
)
def test_a_disk_that_fills_during_the_render_is_said_and_the_project_kept(
    fill, tiny_model, book, tmp_path, capsys, monkeypatch
):
    """It used to end in "could not be rendered: 11 (the first: )": no reason, and the
    suggested retry failed again."""
    out = tmp_path / "book.wav"
    project = tmp_path / "book.ctsproj"
    args = [str(book), "-o", str(out), "--model", str(tiny_model), "--no-refine"]
    fill(monkeypatch)
    code, _stdout, stderr = narrate(args, capsys)
    assert code != 0
    assert stderr.strip() == (
        f"error: The disk is full: free space on {tmp_path}, then run the same command "
        f"again; the project {project} keeps every finished sentence."
    )
    assert not out.exists()
    monkeypatch.undo()
    code, _stdout, stderr = narrate(args, capsys)  # with space again, the same command completes
    assert code == 0, stderr
    assert takes(project) == 4 and out.exists()


def test_a_failure_whose_reason_was_not_recorded_does_not_print_an_empty_one(
    tiny_model, book, tmp_path, capsys, monkeypatch
):
    from app.narration.project import Project, ProjectError

    def refuse(*_args, **_kwargs):
        raise ProjectError("The narration project is read-only (test).")

    monkeypatch.setattr(Project, "add_take", refuse)
    monkeypatch.setattr(Project, "mark_failed", refuse)  # the row cannot say why either
    code, _stdout, stderr = narrate(
        [str(book), "-o", str(tmp_path / "b.wav"), "--model", str(tiny_model), "--no-refine"],
        capsys,
    )
    assert code != 0
    assert "(the first: The narration project is read-only (test).)" in stderr
    assert "(the first: )" not in stderr


def test_a_disk_that_fills_during_the_export_names_the_folder(
    tiny_model, book, tmp_path, capsys, monkeypatch
):
    import errno

    def no_space(tmp, *args, **kwargs):
        with open(tmp, "wb") as f:
            f.write(b"RIFF half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("app.narration.export.exporter.write_sndfile", no_space)
    code, _stdout, stderr = narrate(
        [str(book), "-o", str(tmp_path / "b.wav"), "--model", str(tiny_model), "--no-refine"],
        capsys,
    )
    assert code != 0
    assert f"The disk is full: free space on {tmp_path}, then export again" in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.ctsproj", "book.txt", "studio-home"]
