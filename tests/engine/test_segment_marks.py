"""Sentence boundaries travel with the audio: each segment's characters in the user's text
(text/prepare.py) and its samples (the scheduler), in the chunks and in the result."""

from __future__ import annotations

import numpy as np

from app.core import SegmentMark, segment_at
from app.core.request import AudioChunk, SamplingParams, SynthesisRequest, SynthesisResult
from app.text import prepare_text

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=96))


def test_each_segment_keeps_the_span_of_its_sentence_in_the_text_as_typed():
    text = "It costs $5 today.  Dr. Smith agrees!\n第二行。好的。"
    prepared = prepare_text(text)
    spans = prepared.spans
    assert len(spans) == len(prepared.segments) == 4
    assert [text[a:b] for a, b in spans] == [
        "It costs $5 today.",
        "Dr. Smith agrees!",
        "第二行。",
        "好的。",
    ]
    # The spoken form differs ("five dollars"); the span is the written sentence's.
    assert "$" not in prepared.segments[0]


def test_a_repeated_sentence_gets_its_own_span_and_a_long_one_shares_it():
    text = "Hello there. Hello there."
    assert prepare_text(text).spans == [(0, 12), (13, 25)]
    long = "word, " * 40 + "end."
    prepared = prepare_text(long)
    assert len(prepared.segments) > 1
    assert set(prepared.spans) == {(0, len(long))}


def test_a_sentence_the_dictionary_changed_has_no_span_and_the_rest_still_map():
    class Dictionary:
        def apply(self, text):
            return text.replace("SQL", "sequel")

    text = "I like SQL a lot. The next one is plain."
    spans = prepare_text(text, Dictionary()).spans
    assert spans[0] is None
    assert text[slice(*spans[1])] == "The next one is plain."


def test_segment_at_walks_the_marks():
    marks = [SegmentMark(0, 10, 0, 3), SegmentMark(10, 10), SegmentMark(10, 25, 4, 9)]
    assert [segment_at(marks, s) for s in (0, 9, 10, 24, 99)] == [0, 0, 2, 2, 2]
    assert segment_at([], 5) is None
    assert marks[1].span is None and marks[2].span == (4, 9)


def test_chunks_and_the_result_carry_the_boundaries(synthesizer):
    text = "你好，世界。Hello there. 再见。"
    items = list(synthesizer.synthesize(SynthesisRequest(text, **FAST)))
    chunks, result = items[:-1], items[-1]
    assert isinstance(result, SynthesisResult)
    assert all(isinstance(c, AudioChunk) for c in chunks)
    spans = {c.index: c.span for c in chunks}
    assert [text[a:b] for a, b in (spans[i] for i in range(3))] == [
        "你好，世界。",
        "Hello there.",
        "再见。",
    ]
    marks = result.marks
    assert [m.span for m in marks] == [spans[i] for i in range(3)]
    # Consecutive, covering the audio, each as long as its chunks.
    assert marks[0].start == 0 and marks[-1].end == len(result.audio)
    assert all(a.end == b.start for a, b in zip(marks, marks[1:]))
    for i, mark in enumerate(marks):
        samples = np.concatenate([c.samples for c in chunks if c.index == i])
        assert np.array_equal(result.audio[mark.start : mark.end], samples)
