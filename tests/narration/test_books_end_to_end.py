"""A book in each input format (plain text, Markdown, EPUB, SRT, WebVTT, a dialogue script) read,
rendered on the tiny model through the engine and exported into every output format: each file
decodes at the reported length, with a subtitle cue per sentence and the book's chapters."""

from __future__ import annotations

import av
import pytest
import soundfile as sf

from app.core.request import SamplingParams
from app.narration.export import FORMATS, ExportSettings, export
from app.narration.inputs import read_source
from app.narration.project import Project
from app.narration.render import Renderer
from app.synthesis.engine import Engine
from tests.narration.test_inputs_formats import make_epub
from tests.narration.test_inputs_subtitles import make_subs

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=32))


def _plain(path):
    path.write_text(
        "Chapter 1\n\nThe road was long.\n\nChapter 2\n\n我们去公园。\n", encoding="utf-8"
    )


def _markdown(path):
    path.write_text(
        "# A Book\n\n## One\n\nThe *road* was long.\n\n## Two\n\n我们去[公园](x)。\n",
        encoding="utf-8",
    )


def _epub(path):
    make_epub(
        path,
        [
            ("One", "<html><body><p>The road was long.</p></body></html>"),
            ("Two", "<html><body><p>我们去公园。</p></body></html>"),
        ],
    )


def _srt(path):
    make_subs(path, [(500, 2500, "The road was long."), (3000, 5000, "我们去公园。")])


def _script(path):
    path.write_text("Alice: The road was long.\nBob: 我们去公园。\nAlice: Yes.\n", encoding="utf-8")


BOOKS = {
    "book.txt": (_plain, 2),
    "book.md": (_markdown, 2),
    "book.epub": (_epub, 2),
    "cues.srt": (_srt, 1),
    "cues.vtt": (_srt, 1),
    "play.txt": (_script, 1),
}


@pytest.fixture(scope="module")
def rendered(synthesizer, tmp_path_factory):
    """Every book read and rendered once: name -> (project, chapters expected)."""
    engine = Engine(synthesizer)
    folder = tmp_path_factory.mktemp("books")
    done = {}
    try:
        for name, (write, chapters) in BOOKS.items():
            source = folder / name
            write(source)
            document = read_source(source)
            project = Project.create(folder / f"{name}.ctsproj", document, seed=7)
            outcome = Renderer(project, engine, **FAST).render()
            assert outcome.state == "finished" and outcome.remaining == 0, (name, outcome)
            done[name] = (project, chapters, document)
    finally:
        engine.close(timeout=60)
    return done


def _decoded_seconds(path, fmt) -> float:
    if fmt in ("m4a", "m4b"):
        with av.open(str(path)) as container:
            stream = container.streams.audio[0]
            samples = sum(frame.samples for frame in container.decode(stream))
            return samples / stream.codec_context.sample_rate
    info = sf.info(str(path))
    return info.frames / info.samplerate


def _m4b_chapters(path) -> int:
    with av.open(str(path)) as container:
        return len(container.chapters())


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", list(BOOKS))
def test_every_input_format_exports_to_every_output_format(rendered, name, fmt, tmp_path):
    project, chapters, document = rendered[name]
    assert len(project.chapters()) == chapters
    assert document.timed == name.startswith("cues")
    out = tmp_path / f"out.{fmt}"
    report = export(
        project.rendered_chapters(),
        ExportSettings(format=fmt, subtitles="srt"),
        out,
        title=project.title or None,
    )
    audio = report.audio()
    assert audio.path == out and out.is_file()
    seconds = _decoded_seconds(out, fmt)
    # Lossy coders pad a frame or so; WAV and FLAC are exact.
    tolerance = 1e-6 if fmt in ("wav", "flac") else 0.15
    assert abs(seconds - audio.duration) <= tolerance, (seconds, audio.duration)
    sentences = len(project.sentences())
    assert len(audio.spans) == sentences
    cues = out.with_suffix(".srt").read_text(encoding="utf-8").strip().split("\n\n")
    assert len(cues) == sentences
    if fmt in ("m4a", "m4b"):
        assert _m4b_chapters(out) == chapters
    starts = [span.start / audio.sample_rate for span in audio.spans]
    if document.timed:
        # A timed voice-over places each cue at its time (unless the one before ran over its slot).
        first = document.chapters[0].sentences[0]
        assert starts[0] == pytest.approx(first.start, abs=0.01)
    else:
        assert starts[0] == 0.0 and starts == sorted(starts)
