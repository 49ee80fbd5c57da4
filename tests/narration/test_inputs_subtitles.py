"""Subtitles (SRT, WebVTT), built in the test with pysubs2 or written by hand: each cue's text
becomes timed sentences inside its slot; a damaged, backwards or too distant cue is skipped with a
notice that names it by its place in the file; a file of no readable cues is refused."""

from __future__ import annotations

import pytest

from app.narration.inputs import SourceFileError, read_source


def make_subs(path, cues):
    import pysubs2

    subs = pysubs2.SSAFile()
    for start, end, text in cues:
        subs.append(pysubs2.SSAEvent(start=start, end=end, text=text))
    subs.save(str(path))
    return path


@pytest.mark.parametrize("suffix", [".srt", ".vtt"])
def test_each_cue_becomes_timed_sentences_inside_its_slot(tmp_path, suffix):
    path = make_subs(
        tmp_path / f"voice{suffix}",
        [
            (1_000, 2_500, "{\\i1}Hello{\\i0} there."),
            (3_000, 7_000, "First part is longer. Second."),
        ],
    )
    doc = read_source(path)
    assert doc.kind == "subtitles" and doc.timed and len(doc.chapters) == 1
    cues = [(s.text, s.start, s.end) for s in doc.chapters[0].sentences]
    assert cues[0] == ("Hello there.", 1.0, 2.5)
    # The second cue's slot is shared by length: 21 and 7 characters of 28.
    assert cues[1][0] == "First part is longer." and cues[1][1] == 3.0
    assert cues[1][2] == pytest.approx(3.0 + 4.0 * 21 / 28, abs=1e-3)
    assert cues[2] == ("Second.", cues[1][2], 7.0)


def test_a_cue_that_ends_before_it_starts_is_skipped_with_a_notice(tmp_path):
    path = tmp_path / "bad.srt"
    path.write_text(
        "1\n00:00:01,000 --> 00:00:02,000\nKept.\n\n2\n00:00:05,000 --> 00:00:04,000\nDropped.\n\n",
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["Kept."]
    assert len(doc.notices) == 1 and "Cue 2" in doc.notices[0]


def srt(*cues):
    return "".join(f"{n}\n{timing}\n{text}\n\n" for n, (timing, text) in enumerate(cues, 1))


def test_a_notice_names_the_cue_by_its_place_in_the_file_not_in_time(tmp_path):
    path = tmp_path / "shuffled.srt"
    path.write_text(
        srt(
            ("00:00:05,000 --> 00:00:06,000", "Second."),
            ("00:00:09,000 --> 00:00:08,000", "Backwards."),  # third in time
            ("00:00:01,000 --> 00:00:02,000", "First."),
        ),
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["First.", "Second."]
    assert (
        len(doc.notices) == 1
        and "Cue 2 " in doc.notices[0]
        and "ends before it starts" in doc.notices[0]
    )


def test_a_cue_past_a_week_is_skipped_as_too_far_not_as_backwards(tmp_path):
    path = tmp_path / "far.srt"
    path.write_text(
        srt(
            ("00:00:01,000 --> 00:00:02,000", "Kept."),
            ("200:00:00,000 --> 200:00:01,000", "Too late."),
        ),
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["Kept."]
    assert (
        len(doc.notices) == 1
        and "Cue 2 " in doc.notices[0]
        and "more than a week" in doc.notices[0]
    )
    assert "before it starts" not in doc.notices[0]


def test_a_file_whose_only_cue_is_too_far_is_refused_for_that_reason(tmp_path):
    path = tmp_path / "far.vtt"
    path.write_text("WEBVTT\n\n200:00:00.000 --> 200:00:01.000\nToo late.\n", encoding="utf-8")
    with pytest.raises(SourceFileError) as refused:
        read_source(path)
    assert "no subtitle cue that can be narrated" in str(refused.value)
    assert "Cue 1 " in str(refused.value) and "more than a week" in str(refused.value)


@pytest.mark.parametrize(
    "timing",
    [
        "00:00:0x,000 --> 00:00:04,000",
        "00:00:03,000 - 00:00:04,000",
        "00:00:03,000 --> 00:61:04,000",
        "00:00:03,000 -->",
    ],
)
def test_a_cue_whose_time_line_cannot_be_read_is_skipped_with_a_notice(tmp_path, timing):
    path = tmp_path / "typo.srt"
    path.write_text(
        srt(
            ("00:00:01,000 --> 00:00:02,000", "One."),
            (timing, "Lost?"),
            ("00:00:05,000 --> 00:00:06,000", "Three."),
        ),
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["One.", "Three."]
    assert len(doc.notices) == 1 and "Cue 2 " in doc.notices[0] and timing in doc.notices[0]
    assert "cannot be read" in doc.notices[0]


def test_webvtt_notes_styles_and_cue_names_are_not_cues(tmp_path):
    path = tmp_path / "named.vtt"
    path.write_text(
        "WEBVTT - a title\nKind: captions\n\nNOTE written by hand\n\nSTYLE\n::cue { color: red }\n\n"
        "intro\n00:01.000 --> 00:02.500 align:start\n<v Ann>Hello &amp; <b>welcome</b>.\n\n"
        "00:00:03.000 --> 00:00:04.000\nBye &lt;now&gt;.\n",
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [(s.text, s.start, s.end) for s in doc.chapters[0].sentences] == [
        ("Hello & welcome.", 1.0, 2.5),
        ("Bye <now>.", 3.0, 4.0),
    ]
    assert doc.notices == ()


def test_a_blank_line_inside_a_cues_text_keeps_its_words_and_the_numbering(tmp_path):
    path = tmp_path / "gap.srt"
    path.write_text(
        "1\n00:00:01,000 --> 00:00:02,000\nHello\n\nworld.\n\n"
        "2\n00:00:03,000 --> 00:00:04,000\nBye.\n\n"
        "3\n00:00:06,000 --> 00:00:05,000\nBackwards.\n",
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [(s.text, s.start) for s in doc.chapters[0].sentences] == [
        ("Hello world.", 1.0),
        ("Bye.", 3.0),
    ]
    assert len(doc.notices) == 1 and "Cue 3 " in doc.notices[0]


def test_a_webvtt_cue_right_under_the_header_is_read(tmp_path):
    path = tmp_path / "tight.vtt"
    path.write_text(
        "WEBVTT\nKind: captions\n00:00:01.000 --> 00:00:02.000\nFirst.\n\n"
        "00:00:03.000 --> 00:00:04.000\nSecond.\n",
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["First.", "Second."]
    assert doc.notices == ()


def test_a_file_of_broken_cues_gives_a_bounded_list_of_notices(tmp_path):
    from app.narration.inputs.limits import MAX_NOTICES

    path = tmp_path / "broken.srt"
    path.write_text(
        "".join(f"{n}\nsoon\nLine {n}.\n\n" for n in range(1, 5001))
        + srt(("00:00:01,000 --> 00:00:02,000", "Kept.")),
        encoding="utf-8",
    )
    doc = read_source(path)
    assert [s.text for s in doc.chapters[0].sentences] == ["Kept."]
    assert len(doc.notices) == MAX_NOTICES + 1 and "Cue 100 " in doc.notices[MAX_NOTICES - 1]
    assert doc.notices[-1] == f"{5000 - MAX_NOTICES:,} more notices like these were left out."
    path.write_text(
        "".join(f"{n}\nsoon\nx\n\n" for n in range(1, MAX_NOTICES + 2))
        + srt(("00:00:01,000 --> 00:00:02,000", "Kept.")),
        encoding="utf-8",
    )
    assert read_source(path).notices[-1] == "1 more notice like these was left out."


def test_more_cues_than_sentences_allowed_is_refused_early(tmp_path, monkeypatch):
    from app.narration.inputs import subtitles

    monkeypatch.setattr(subtitles, "MAX_SENTENCES", 50)
    path = tmp_path / "many.srt"
    path.write_text("".join(f"{n}\nsoon\nx\n\n" for n in range(1, 52)), encoding="utf-8")
    with pytest.raises(SourceFileError, match="more than 50 subtitle cues; split it"):
        read_source(path)


def test_a_cue_text_in_many_blank_line_pieces_is_joined_in_linear_time():
    import time

    from app.narration.inputs.subtitles import read_cues

    text = "1\n00:00:01,000 --> 00:00:09,000\nStart\n\n" + "and more words here\n\n" * 100_000
    began = time.perf_counter()
    (cue,) = read_cues(text)
    assert time.perf_counter() - began < 5  # joined once: ~0.3 s; cue by cue it was ~1 min
    assert cue.text.count("\n") == 100_000 and cue.text.endswith("words here")


def test_subtitles_without_cues_are_a_sentence(tmp_path):
    path = tmp_path / "empty.srt"
    path.write_text("just some words, no times\n", encoding="utf-8")
    with pytest.raises(SourceFileError, match="no subtitle cues"):
        read_source(path)
