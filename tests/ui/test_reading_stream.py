"""The read-along while a request still streams: the segment heard follows the sound card,
and a skip starts the output again from the pieces received, later pieces of earlier
sentences no longer queued (app/ui/controllers/reading.py)."""

from __future__ import annotations

import numpy as np

from app.core import AudioChunk, SegmentMark, SynthesisResult
from app.selftest.fake_audio import FakeOutput
from app.ui.controllers.reading import Reading

SPANS = [(0, 5), (6, 11), (12, 20)]


def _chunk(index: int, n: int, final: bool) -> AudioChunk:
    samples = np.full(n, index + 1, dtype=np.float32)
    return AudioChunk(index, 3, samples, 24_000, final=final, span=SPANS[index])


def _reading(qtbot):
    output = FakeOutput()
    reading = Reading(None, output)
    heard = []
    reading.at.connect(lambda segment, span: heard.append((segment, span)))
    output.start(24_000)
    reading.begin_stream(24_000, text_offset=100, text="x")
    return reading, output, heard


def test_the_segment_heard_follows_the_card_while_pieces_arrive(qtbot):
    reading, output, heard = _reading(qtbot)
    reading.stream_chunk(_chunk(0, 50, False))
    reading.stream_chunk(_chunk(0, 50, True))
    reading.stream_chunk(_chunk(1, 30, False))
    assert reading.poll() == 0
    output.advance(99)
    assert reading.poll() == 0
    output.advance(1)
    assert reading.poll() == 1
    output.advance(500)  # the card cannot play what has not come: it waits in sentence 1
    assert reading.poll() == 1 and output.played_samples() == 130
    # Spans are in the text shown: the request's text started at character 100 of it.
    assert heard == [(0, (100, 105)), (1, (106, 111))]


def test_a_skip_while_streaming_requeues_from_that_sentence_and_drops_earlier_pieces(qtbot):
    reading, output, heard = _reading(qtbot)
    reading.stream_chunk(_chunk(0, 40, True))
    reading.stream_chunk(_chunk(1, 20, False))
    output.advance(10)
    assert reading.poll() == 0
    assert reading.skip(+1)
    assert output.segments == [(1, False)] and reading.poll() == 1
    assert reading.skip(+1)  # to a sentence not decoded yet: it is next
    assert output.chunks == [] and reading.poll() == 2
    reading.stream_chunk(_chunk(1, 20, True))  # the rest of sentence 1: skipped
    reading.stream_chunk(_chunk(2, 25, True))
    assert output.segments == [(2, True)]
    assert reading.poll() == 2
    assert reading.skip(-2)
    assert [s for s, _f in output.segments] == [0, 1, 1, 2] and reading.poll() == 0
    # Complete: a later skip plays from the whole result.
    audio = np.concatenate([np.full(n, i + 1, np.float32) for i, n in enumerate((40, 40, 25))])
    marks = [SegmentMark(0, 40, *SPANS[0]), SegmentMark(40, 80, *SPANS[1])]
    marks.append(SegmentMark(80, 105, *SPANS[2]))
    reading.stream_done(SynthesisResult(audio, 24_000, "cpu", "", 1, 3, 0.1, marks=marks))
    assert reading.jump(1)
    assert output.ended and [s for s, _f in output.segments] == [1, 2]
    assert np.array_equal(output.played(), audio[40:])
    output.advance(65)
    assert reading.poll() == -1 and not reading.active
    assert heard[-1] == (-1, None)


def test_pause_holds_the_card_and_a_skip_keeps_it_paused(qtbot):
    reading, output, _heard = _reading(qtbot)
    reading.stream_chunk(_chunk(0, 40, True))
    reading.stream_chunk(_chunk(1, 40, True))
    assert reading.toggle_pause() and output.paused
    output.advance(60)
    assert output.played_samples() == 0 and reading.poll() == 0
    assert reading.skip(+1) and output.paused and reading.poll() == 1
    assert reading.toggle_pause() and not output.paused
    reading.reset()
    assert not reading.toggle_pause()  # nothing plays
