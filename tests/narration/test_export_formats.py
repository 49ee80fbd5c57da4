"""Every format writes a file that decodes back with the right rate and length; chapter marks
and subtitles say where the sound really is."""

from __future__ import annotations

import re

import av
import numpy as np
import pytest
import soundfile as sf

from app.narration.export import ExportSettings, export
from app.narration.rendered import RenderedChapter, RenderedSentence

RATE = 24_000


def tone(samples: int, freq: float = 330.0) -> np.ndarray:
    """A tone whose every sample is non-zero (a cosine offset), so onsets are exact."""
    t = np.arange(samples) / RATE
    return (
        0.1
        * (0.6 + 0.4 * np.cos(2 * np.pi * freq * t))
        * np.sign(np.sin(2 * np.pi * 50 * t) + 1e-9)
    ).astype(np.float32)


def book() -> list[RenderedChapter]:
    return [
        RenderedChapter(
            "Opening 开篇",
            (
                RenderedSentence("First line.", tone(12_345)),
                RenderedSentence("Second, longer line.", tone(20_000)),
            ),
        ),
        RenderedChapter("Middle", (RenderedSentence("Alone.", tone(7_001)),)),
        RenderedChapter(
            "End",
            (
                RenderedSentence("One.", tone(9_000)),
                RenderedSentence("Two.", tone(4_000)),
                RenderedSentence("Three.", tone(5_555)),
            ),
        ),
    ]


def expected_length(chapters, s: ExportSettings) -> int:
    gap, cgap = round(s.sentence_pause * RATE), round(s.chapter_pause * RATE)
    return sum(
        sum(len(x.audio) for x in c.sentences) + gap * (len(c.sentences) - 1) for c in chapters
    ) + cgap * (len(chapters) - 1)


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(np.int8), [0]])))
    return list(zip(edges[::2], edges[1::2]))


def stamps(text: str) -> list[tuple[float, float]]:
    found = re.findall(
        r"(\d\d):(\d\d):(\d\d)[,.](\d\d\d) --> (\d\d):(\d\d):(\d\d)[,.](\d\d\d)", text
    )

    def sec(h, m, s, ms):
        return int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000

    return [(sec(*f[:4]), sec(*f[4:])) for f in found]


@pytest.mark.parametrize("fmt", ["wav", "flac"])
@pytest.mark.parametrize("kind", ["srt", "vtt"])
def test_lossless_sentences_and_subtitles_are_where_the_sound_is(tmp_path, fmt, kind):
    s = ExportSettings(format=fmt, subtitles=kind, sentence_pause=0.3, chapter_pause=1.2)
    chapters = book()
    report = export(chapters, s, tmp_path / "book", title="Book")
    audio_file = report.audio()
    data, rate = sf.read(audio_file.path, dtype="int16")
    assert rate == RATE and len(data) == expected_length(chapters, s)
    # The sound in the file is exactly the sentences, at exactly their reported samples.
    assert runs(data != 0) == [(span.start, span.end) for span in audio_file.spans]
    assert audio_file.chapter_starts == (
        0.0,
        audio_file.spans[2].start / RATE,
        audio_file.spans[3].start / RATE,
    )
    assert audio_file.spans[3].start - audio_file.spans[2].end == round(1.2 * RATE)
    text = (tmp_path / f"book.{kind}").read_text(encoding="utf-8")
    assert text.startswith("WEBVTT") == (kind == "vtt")
    got = stamps(text)
    assert len(got) == 6
    for (start, end), span in zip(got, audio_file.spans):
        assert abs(start - span.start / RATE) <= 0.0005 and abs(end - span.end / RATE) <= 0.0005
    assert "Second, longer line." in text


@pytest.mark.parametrize("fmt", ["mp3", "ogg", "opus"])
def test_lossy_sndfile_formats_decode_back_at_their_length(tmp_path, fmt):
    s = ExportSettings(format=fmt)
    chapters = book()
    report = export(chapters, s, tmp_path / f"book.{fmt}", title="Book 书")
    path = report.audio().path
    assert path == tmp_path / f"book.{fmt}"
    info = sf.info(path)
    # libsndfile writes the encoder delay, so it decodes back to the sample.
    assert info.samplerate == RATE and info.frames == expected_length(chapters, s)
    with sf.SoundFile(path) as f:
        assert f.title == "Book 书"
    with av.open(str(path)) as container:  # a second decoder agrees it is whole and in time
        stream = container.streams.audio[0]
        decoded = sum(frame.samples for frame in container.decode(stream)) / stream.rate
    assert abs(decoded - info.frames / RATE) < 0.1


@pytest.mark.parametrize("fmt", ["m4a", "m4b"])
def test_aac_has_its_chapters_title_and_length(tmp_path, fmt):
    s = ExportSettings(format=fmt, chapter_pause=2.0)
    chapters = book()
    report = export(chapters, s, tmp_path / "book", title="Book 书", author="Jane Doe, 李雷")
    whole = report.audio()
    with av.open(str(whole.path)) as container:
        assert container.metadata["title"] == "Book 书"
        assert container.metadata["artist"] == "Jane Doe, 李雷"
        if fmt == "m4b":
            assert container.metadata["major_brand"].strip() == "M4B"
        marks = container.chapters()
        stream = container.streams.audio[0]
        assert stream.rate == RATE
        decoded = sum(frame.samples for frame in container.decode(stream))
    n = expected_length(chapters, s)
    assert n <= decoded < n + 1024  # AAC pads its last frame; the priming is trimmed
    assert [m["metadata"]["title"] for m in marks] == ["Opening 开篇", "Middle", "End"]
    starts = [float(m["start"] * m["time_base"]) for m in marks]
    assert starts == pytest.approx(list(whole.chapter_starts), abs=0.001)
    assert whole.chapter_starts[1] == pytest.approx((12_345 + 20_000 + 0.35 * RATE) / RATE + 2.0)


def test_mp3_carries_chapter_tags(tmp_path):
    from mutagen.id3 import ID3

    report = export(book(), ExportSettings(format="mp3"), tmp_path / "book.mp3", title="Book")
    whole = report.audio()
    tags = ID3(whole.path)
    (toc,) = tags.getall("CTOC")
    chaps = {c.element_id: c for c in tags.getall("CHAP")}
    ordered = [chaps[i] for i in toc.child_element_ids]
    assert [c.sub_frames["TIT2"].text[0] for c in ordered] == ["Opening 开篇", "Middle", "End"]
    assert [c.start_time for c in ordered] == [round(t * 1000) for t in whole.chapter_starts]
    assert ordered[-1].end_time == round(whole.duration * 1000)
    assert tags["TIT2"].text == ["Book"]


def test_per_chapter_files_and_the_one_file_together(tmp_path):
    chapters = book()
    s = ExportSettings(format="flac", per_chapter=True, subtitles="srt")
    report = export(chapters, s, tmp_path / "book.flac", title="Book")
    names = sorted(p.name for p in (tmp_path / "book").iterdir())
    assert names == [
        "01 Opening 开篇.flac",
        "01 Opening 开篇.srt",
        "02 Middle.flac",
        "02 Middle.srt",
        "03 End.flac",
        "03 End.srt",
    ]
    for i, c in enumerate(chapters):
        f = report.audio(i)
        data, rate = sf.read(f.path, dtype="int16")
        gap = round(s.sentence_pause * RATE)
        assert len(data) == sum(len(x.audio) for x in c.sentences) + gap * (len(c.sentences) - 1)
        assert runs(data != 0) == [(span.start, span.end) for span in f.spans]
        with sf.SoundFile(f.path) as tagged:
            assert (tagged.title, tagged.album) == (c.title, "Book")
        assert len(stamps(f.path.with_suffix(".srt").read_text(encoding="utf-8"))) == len(
            c.sentences
        )
    assert (tmp_path / "book.flac").exists() and (tmp_path / "book.srt").exists()


def test_opus_at_a_rate_it_cannot_carry_is_converted_to_48_khz(tmp_path):
    chapter = RenderedChapter("x", (RenderedSentence("a", tone(22_050)),), sample_rate=22_050)
    report = export([chapter], ExportSettings(format="opus", loudness=None), tmp_path / "a.opus")
    info = sf.info(report.audio().path)
    assert info.samplerate == 48_000 and info.frames == 48_000


def test_mp3_bitrate_is_the_one_asked(tmp_path):
    from mutagen.mp3 import MP3

    report = export(book(), ExportSettings(format="mp3", bitrate=64), tmp_path / "a.mp3")
    assert MP3(report.audio().path).info.bitrate == 64_000
    report = export(book(), ExportSettings(format="mp3", bitrate=320), tmp_path / "b.mp3")
    assert MP3(report.audio().path).info.bitrate == 160_000  # MPEG-2 at 24 kHz stops there
    assert any("160 kbit/s" in w for w in report.warnings)


def test_a_timed_voice_over_puts_each_cue_at_its_time_and_reports_overflow(tmp_path):
    cues = [
        (0.5, 2.0, 30_000),
        (2.5, 4.0, 48_000),
        (4.2, 6.0, 12_000),
    ]  # the second is 2 s for a 1.5 s slot
    chapter = RenderedChapter(
        "Voice-over",
        tuple(
            RenderedSentence(f"cue {i}", tone(n), start, end)
            for i, (start, end, n) in enumerate(cues)
        ),
    )
    report = export(
        [chapter], ExportSettings(format="wav", subtitles="srt", loudness=None), tmp_path / "vo.wav"
    )
    data, _rate = sf.read(report.audio().path, dtype="int16")
    # The third cue waits for the second to end: their sound runs on without a gap, nothing overlaps.
    assert runs(data != 0) == [(12_000, 42_000), (60_000, 120_000)]
    assert [(s.start, s.end) for s in report.audio().spans] == [
        (12_000, 42_000),
        (60_000, 108_000),
        (108_000, 120_000),
    ]
    (over,) = report.overflows
    assert (
        over.sentences == (1,)
        and over.over == pytest.approx(0.5)
        and over.speed_needed == pytest.approx(4 / 3)
    )
    assert any("0.50 s" in w for w in report.warnings)
    got = stamps((tmp_path / "vo.srt").read_text(encoding="utf-8"))
    assert got == [(0.5, 1.75), (2.5, 4.5), (4.5, 5.0)]
