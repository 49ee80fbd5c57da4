"""Streamed audio equals the whole decode; running out of memory shrinks the batch, not the result."""

import numpy as np
import pytest
import torch

from app.core.errors import OutOfMemoryError
from app.core.request import SamplingParams, SynthesisRequest
from app.decode import memory, vocoder_stream
from app.decode.vocoder_stream import (
    StreamingVocoder,
    decode_whole,
    push_all,
    receptive_tokens,
)
from tests.support.decode_hooks import record_audio_batches, step_hooked

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=96))
PARAGRAPH = "第一句话。第二句话。第三句话。第四句话。第五句话。"


def _stream(vocoder, hiddens, every):
    pieces = [vocoder.push(hiddens[:n]) for n in range(every, hiddens.shape[0], every)]
    pieces.append(vocoder.push(hiddens, final=True))
    return pieces


@pytest.fixture(scope="module")
def hiddens(chat):
    torch.manual_seed(0)
    return torch.randn(150, chat.config.gpt.hidden_size)


def test_stream_with_full_context_equals_the_whole_decode(chat, hiddens):
    whole = decode_whole(chat, hiddens)
    rf = receptive_tokens(chat)
    pieces = _stream(
        StreamingVocoder(chat, lookahead=rf, context=rf, first_lookahead=rf), hiddens, every=5
    )
    streamed = np.concatenate(pieces)
    assert len([p for p in pieces if p.size]) > 3  # it really came in pieces
    assert streamed.shape == whole.shape  # nothing repeated, nothing lost
    np.testing.assert_allclose(streamed, whole, atol=1e-5)


def test_default_stream_has_the_whole_length_and_no_jump_at_joins(chat, hiddens):
    whole = decode_whole(chat, hiddens)
    vocoder = StreamingVocoder(chat)
    pieces = _stream(vocoder, hiddens, every=4)
    streamed = np.concatenate(pieces)
    assert streamed.shape == whole.shape
    joins = np.cumsum([p.size for p in pieces if p.size])[:-1]
    steps = np.abs(np.diff(streamed))
    typical = np.percentile(np.abs(np.diff(whole)), 99)
    assert all(steps[j - 1] <= 2 * typical for j in joins)  # a click would be a jump here


def test_sentences_streamed_together_sound_as_streamed_alone(chat, hiddens, monkeypatch):
    """push_all decodes equal windows of several sentences in one call (the mel decoder's
    streams of sentences at the same place in one batch), the rest on their own; each
    sentence's pieces are the ones it gets alone (to float rounding), none lost or doubled."""
    rows = [hiddens[:120], hiddens[30:150], torch.flip(hiddens, [0])[:120], hiddens[:97]]
    alone = [np.concatenate(_stream(StreamingVocoder(chat), h, every=4)) for h in rows]
    batches: list[int] = []
    together = vocoder_stream.advance_together

    def counted(streams, windows, call):
        batches.append(len(streams))
        return together(streams, windows, call)

    monkeypatch.setattr(vocoder_stream, "advance_together", counted)
    vocoders = [StreamingVocoder(chat) for _ in rows]
    pieces = [[] for _ in rows]
    for n in range(4, 120, 4):
        live = [i for i, h in enumerate(rows) if n < h.shape[0]]
        for i, piece in zip(
            live, push_all(chat, [(vocoders[i], rows[i][:n], False) for i in live])
        ):
            pieces[i].append(piece)
    finals = push_all(chat, [(v, h, True) for v, h in zip(vocoders, rows)])
    for i, h in enumerate(rows):
        got = np.concatenate(pieces[i] + [finals[i]])
        assert got.shape == alone[i].shape == decode_whole(chat, h).shape
        np.testing.assert_allclose(got, alone[i], atol=1e-5)
    assert batches.count(4) >= 3 and batches.count(3) >= 1  # all four, then three past 97


@pytest.mark.parametrize("lookahead, context, first_lookahead", [(None, None, None), (2, 1, 1)])
def test_a_sentences_audio_is_the_same_however_often_it_is_looked_at(
    chat, hiddens, lookahead, context, first_lookahead
):
    """Alone a sentence is looked at every 4 tokens; in a batch it joined mid-way, at other
    counts; a slow step may skip a look. Its audio must not depend on that, even where the
    lookahead and context are below the receptive field (9 tokens here), so pieces do not
    simply equal the whole decode."""
    kwargs = {
        k: v
        for k, v in dict(
            lookahead=lookahead, context=context, first_lookahead=first_lookahead
        ).items()
        if v is not None
    }
    looks = {
        "every 4": list(range(4, 150, 4)),
        "every token": list(range(1, 150)),
        "every 7, from 3": list(range(3, 150, 7)),
        "rarely": [9, 10, 40, 41, 100],
        "once": [150],
    }
    heard = {}
    for name, counts in looks.items():
        vocoder = StreamingVocoder(chat, **kwargs)
        pieces = [vocoder.push(hiddens[:n]) for n in counts] + [vocoder.push(hiddens, final=True)]
        heard[name] = np.concatenate(pieces)
    first = heard["every 4"]
    assert first.shape == decode_whole(chat, hiddens).shape
    for name, audio in heard.items():
        assert np.array_equal(audio, first), name
    if lookahead is not None:  # below the receptive field the joins do differ from the whole decode
        assert not np.allclose(first, decode_whole(chat, hiddens), atol=1e-5)


@pytest.mark.parametrize("lookahead", [None, 2])
def test_a_sentence_that_sent_nothing_before_it_ended_is_decoded_whole_in_one_call(
    chat, hiddens, lookahead, monkeypatch
):
    """Its grid pieces would each decode their context again (4x the work at 96 tokens); one
    whole decode gives the reference audio, which the streamed pieces equal within float
    rounding at the shipped lookahead."""
    from app.decode import vocoder_stream

    calls = []
    real = vocoder_stream.decode_batch
    monkeypatch.setattr(
        vocoder_stream,
        "decode_batch",
        lambda c, windows: calls.append(len(windows)) or real(c, windows),
    )
    kwargs = {} if lookahead is None else dict(lookahead=lookahead, context=1, first_lookahead=1)
    audio = StreamingVocoder(chat, **kwargs).push(hiddens, final=True)
    assert calls == [1]
    assert np.array_equal(audio, decode_whole(chat, hiddens))
    streamed = StreamingVocoder(chat)
    pieces = [streamed.push(hiddens[:n]) for n in range(4, 150, 4)] + [
        streamed.push(hiddens, final=True)
    ]
    np.testing.assert_allclose(np.concatenate(pieces), audio, atol=1e-6)


def test_receptive_field_counts_every_convolution(chat):
    # tiny decoder: conv_in 1+1, one block (k7, d2) 6, out_conv 1; tiny Vocos: embed 3, one
    # block 3; ISTFT 2 frames -> 17 frames, 9 tokens.
    assert receptive_tokens(chat) == 9


def test_streamed_synthesis_equals_unstreamed(synthesizer, monkeypatch):
    rf = receptive_tokens(synthesizer.parts)
    monkeypatch.setattr(synthesizer.speech, "lookahead", rf)
    request = SynthesisRequest("你好，世界。今天天气很好，我们一起去公园散步吧。", **FAST)
    chunks = list(synthesizer.synthesize(request))[:-1]
    monkeypatch.setattr(synthesizer, "stream", False)
    whole = synthesizer.run(request)
    streamed = np.concatenate([c.samples for c in chunks])
    assert len(chunks) > whole.segments  # more pieces than sentences
    assert streamed.shape == whole.audio.shape
    np.testing.assert_allclose(streamed, whole.audio, atol=1e-5)


def _end_rows_at(ends):
    """A step hook (decode_hooks.step_hooked): batch row r emits the end token at step ends[r], and never before;
    rows not in `ends` never do (they run to the token limit)."""

    def hook(step, logits, rows):
        for place, row in enumerate(rows.tolist()):
            codes = logits[place * 4 : (place + 1) * 4]
            if ends.get(row) == step:
                codes.fill_(float("-inf"))
                codes[:, 625] = 0.0
            else:
                codes[:, 625] = float("-inf")

    return hook


def test_a_batch_whose_sentences_end_at_different_steps_streams_like_the_whole_decode(
    synthesizer, monkeypatch
):
    """Five sentences: the first alone, then four in one batch where the second row outlives
    the first, the third ends before the second (behind the one being streamed) and the
    fourth runs to the token limit. Streamed, every sentence ends exactly once and in order,
    and the samples equal the unstreamed decode of the same tokens."""
    rf = receptive_tokens(synthesizer.parts)
    monkeypatch.setattr(synthesizer.speech, "lookahead", rf)
    monkeypatch.setattr(
        synthesizer.loop,
        "filter_step",
        step_hooked(synthesizer.loop, _end_rows_at({0: 20, 1: 50, 2: 35})),
    )
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**50)  # room for a batch of 4
    batches = record_audio_batches(monkeypatch, synthesizer.loop)
    request = SynthesisRequest(PARAGRAPH, voice_lock=False, **FAST)
    chunks = list(synthesizer.synthesize(request))[:-1]
    monkeypatch.setattr(synthesizer, "stream", False)
    whole = synthesizer.run(request)
    assert batches == [1, 4, 1, 4]  # streamed run, then the whole one
    assert [c.index for c in chunks] == sorted(c.index for c in chunks)
    for index in range(5):
        mine = [c for c in chunks if c.index == index]
        assert [c.final for c in mine] == [False] * (len(mine) - 1) + [True], index
    lengths = [sum(c.samples.size for c in chunks if c.index == i) // 512 for i in range(5)]
    # 20, 50 and 35 tokens before the end token; the fourth batch row runs to the 96 limit.
    assert lengths[:4] == [19, 19, 49, 34] and lengths[4] == 95
    assert len(chunks) > 2 * whole.segments  # really streamed in pieces
    streamed = np.concatenate([c.samples for c in chunks])
    assert streamed.shape == whole.audio.shape
    np.testing.assert_allclose(streamed, whole.audio, atol=1e-5)


def _fail_batches(monkeypatch, loop, after_steps=0):
    """Make every batch of more than one sentence run out of memory (after some steps)."""
    real = loop.run_stack
    seen = {"steps": 0, "failures": 0}

    def failing(x, *args):
        if x.shape[0] > 1:
            seen["steps"] += 1
            if seen["steps"] > after_steps:
                seen["steps"] = 0
                seen["failures"] += 1
                raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(x, *args)

    monkeypatch.setattr(loop, "run_stack", failing)
    return seen


@pytest.mark.parametrize("after_steps", [0, 30], ids=["at-start", "mid-stream"])
def test_out_of_memory_halves_the_batch_and_gives_the_same_audio(
    synthesizer, monkeypatch, after_steps
):
    request = SynthesisRequest(PARAGRAPH, voice_lock=False, **FAST)
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**50)  # room for a batch of 4
    expected = synthesizer.run(request)
    seen = _fail_batches(monkeypatch, synthesizer.loop, after_steps)
    batches = record_audio_batches(monkeypatch, synthesizer.loop)
    finals = []
    got = synthesizer.run(request, on_chunk=lambda c: c.final and finals.append(c.index))
    # The first sentence alone; the other four: 4 fails, 2 fails, then one at a time.
    assert batches == [1, 4, 2, 1, 1, 1, 1]
    assert seen["failures"] == 2
    assert finals == [0, 1, 2, 3, 4]  # each sentence ends once, in order
    assert got.audio.shape == expected.audio.shape
    np.testing.assert_allclose(got.audio, expected.audio, atol=1e-5)


def test_out_of_memory_with_one_sentence_says_so(synthesizer, monkeypatch):
    def always(*_args, **_kwargs):
        raise torch.OutOfMemoryError("CUDA out of memory.")

    monkeypatch.setattr(synthesizer.loop, "allocate_cache", always)
    with pytest.raises(OutOfMemoryError, match="even with one sentence at a time"):
        synthesizer.run(SynthesisRequest("你好。", **FAST))


def test_batch_size_follows_free_memory(synthesizer, monkeypatch):
    loop = synthesizer.loop
    per_row = loop.cache_bytes_per_row(2304) + memory.EXTRA_PER_ROW
    monkeypatch.setattr(memory, "free_bytes", lambda _device: int(per_row * 2 * 3.5))
    assert memory.choose_batch(loop, 2304, 4) == 3
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 10)
    assert memory.choose_batch(loop, 2304, 4) == 1
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**50)
    assert memory.choose_batch(loop, 2304, 4) == 4
    assert memory.choose_batch(loop, 2304, 2) == 2


def test_upstream_decode_is_still_selectable(tiny_model):
    from app.synthesis.synthesizer import Synthesizer

    synth = Synthesizer(tiny_model, device="cpu", decode="upstream")
    synth.load()
    result = synth.run(SynthesisRequest("你好，世界。", **FAST))
    assert result.decode == "upstream" and result.duration > 0


def test_every_row_of_a_batch_ends_once_even_one_with_no_tokens(synthesizer, monkeypatch):
    """The speech pieces of one batch: row 1 ends at once (no audio), row 0 (streamed first)
    ends while row 2 goes on, so row 1's end is passed while streaming, not at the batch's end.
    Each row still gets exactly one final piece, in reading order."""
    from app.decode.batch import BatchSession, Row
    from app.decode.passes import PassParams

    monkeypatch.setattr(
        synthesizer.loop,
        "filter_step",
        step_hooked(synthesizer.loop, _end_rows_at({0: 10, 1: 0, 2: 40})),
    )
    texts = ["第一句话。", "第二句话。", "第三句话。"]
    request = SynthesisRequest("".join(texts), seed=1)
    pieces = list(
        synthesizer.speech.speak(
            [Row(text, i, request, None, None, 0) for i, text in enumerate(texts)],
            "[speed_5]",
            PassParams(0.3, 0.7, 20, 1.05, 64),
            BatchSession(stream=True),
        )
    )
    assert [p.row for p in pieces] == sorted(p.row for p in pieces)
    for row, tokens in ((0, 10), (1, 0), (2, 40)):
        mine = [p for p in pieces if p.row == row]
        assert [p.final for p in mine] == [False] * (len(mine) - 1) + [True], row
        assert sum(p.samples.size for p in mine) == max(0, tokens * 512 - 256), row
