"""The scheduler's edges, seen by clients of one Engine: cancels, preemption, errors and retries
while requests share batches. Timing is made deterministic by acting from a hook on the decode
loop's steps (tests/support/decode_hooks.py, on the engine's thread) instead of racing a second
thread."""

import threading

import numpy as np
import pytest
import torch

from app.core.errors import OutOfMemoryError, SynthesisCancelled
from app.core.request import AudioChunk, SamplingParams, SynthesisRequest
from app.decode import memory
from app.synthesis.tickets import Priority
from tests.support.decode_hooks import record_audio_batches, step_hooked

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))
LONG = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=200))
PLAY = SynthesisRequest("你好。", seed=3, **FAST)
GUARD = (
    120  # seconds a client may wait before the test calls its job stuck (never reached when right)
)


def _finish(work):
    """Run `work()` on a client thread; its value or exception, or a failure if it never ends."""
    outcome = {}

    def client():
        try:
            outcome["value"] = work()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=client, daemon=True)
    thread.start()
    thread.join(GUARD)
    assert not thread.is_alive(), "the client was never told its request ended"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _collect(job):
    chunks = []
    for item in job:
        if isinstance(item, AudioChunk):
            chunks.append(item)
        else:
            return chunks, item


def _force_ends(loop, logits, rows, ends):
    """Batch row r emits the end token at step ends[r] (None: at no step); rows not in `ends`
    are left to the model."""
    eos, vq = loop.num_audio_tokens - 1, loop.num_vq
    for place, row in enumerate(rows.tolist()):
        if row not in ends:
            continue
        codes = logits[place * vq : (place + 1) * vq]
        if ends[row] is not None and ends[row] == ends["step"]:
            codes.fill_(float("-inf"))
            codes[:, eos] = 0.0
        else:
            codes[:, eos] = float("-inf")


def _hook_ends(loop, ends):
    def hook(step, logits, rows):
        _force_ends(loop, logits, rows, {**ends, "step": step})

    return hook


# -- cancel -------------------------------------------------------------------------------
def test_cancelling_the_last_request_still_decoding_in_a_batch_stops_that_batch(
    synthesizer, engine, monkeypatch
):
    """Two one-sentence requests share a batch; the first ends at step 3 and is done, then the
    second is cancelled: nobody is left to hear the batch, so it stops within a step instead
    of running to the token limit (and holding up every request behind it)."""
    loop = synthesizer.loop
    e = engine()
    jobs, after = {}, []

    def hook(step, logits, rows):
        _force_ends(loop, logits, rows, {0: 3, 1: None, "step": step})
        if "cancelled" in jobs:
            after.append(step)
        elif jobs["short"].ticket.done:
            jobs["cancelled"] = step
            jobs["long"].cancel()

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    jobs["short"] = e.submit(SynthesisRequest("你好。", seed=1, **LONG))
    jobs["long"] = e.submit(SynthesisRequest("今天天气很好。", seed=2, **LONG))
    e.start()
    _chunks, short = _finish(lambda: _collect(jobs["short"]))
    with pytest.raises(SynthesisCancelled):
        _finish(lambda: _collect(jobs["long"]))
    assert short.segments == 1 and short.audio.size > 0
    assert "cancelled" in jobs
    assert after == []  # the step in flight finished; no other step started


def test_cancelling_a_queued_background_request_during_preemption_ends_it_and_serves_the_play(
    synthesizer, engine, monkeypatch
):
    loop = synthesizer.loop
    background_request = SynthesisRequest(
        "第一句话。第二句话。第三句话。", seed=7, voice_lock=False, **FAST
    )
    e = engine()
    jobs = {}
    batches = record_audio_batches(monkeypatch, loop)

    def hook(step, logits, rows):
        if len(batches) == 2 and step == 5 and "play" not in jobs:
            jobs["play"] = e.submit(PLAY, Priority.INTERACTIVE)  # stops the background batch
            jobs["background"].cancel()  # ...which is cancelled too

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    jobs["background"] = e.submit(background_request, Priority.BACKGROUND)
    e.start()
    with pytest.raises(SynthesisCancelled):
        _finish(lambda: _collect(jobs["background"]))
    _chunks, play = _finish(lambda: _collect(jobs["play"]))
    assert play.segments == 1 and play.audio.size > 0
    assert batches == [1, 2, 1]  # background first, its rest (stopped), the Play; no replay


def test_cancelling_the_play_that_preempted_a_batch_lets_the_background_finish_as_alone(
    synthesizer, engine, monkeypatch
):
    loop = synthesizer.loop
    background_request = SynthesisRequest(
        "第一句话。第二句话。第三句话。", seed=7, voice_lock=False, **FAST
    )
    alone = synthesizer.run(background_request)
    e = engine()
    jobs = {}
    batches = record_audio_batches(monkeypatch, loop)

    def hook(step, logits, rows):
        if len(batches) == 2 and step == 5 and "play" not in jobs:
            jobs["play"] = e.submit(PLAY, Priority.INTERACTIVE)
            jobs["play"].cancel()

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    jobs["background"] = e.submit(background_request, Priority.BACKGROUND)
    e.start()
    chunks, result = _finish(lambda: _collect(jobs["background"]))
    with pytest.raises(SynthesisCancelled):
        _finish(lambda: _collect(jobs["play"]))
    assert [c.index for c in chunks if c.final] == [0, 1, 2]
    np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)


# -- priority -----------------------------------------------------------------------------
def test_a_play_that_arrives_while_background_text_is_prepared_is_decoded_first(
    synthesizer, engine, monkeypatch
):
    """The Play is submitted while the engine admits a background request (between admitting
    and forming the batch): it must not wait behind that request's first batch."""
    background_request = SynthesisRequest("第一句话。第二句话。", seed=7, **FAST)
    e = engine()
    jobs, groups = {}, []
    real_prepare, real_decode = synthesizer.prepare, synthesizer.decoder.decode

    def preparing(text):
        if text == background_request.text and "play" not in jobs:
            jobs["play"] = e.submit(PLAY, Priority.INTERACTIVE)
        return real_prepare(text)

    def decoding(rows, batch):
        groups.append([r.group for r in rows])
        return real_decode(rows, batch)

    monkeypatch.setattr(synthesizer, "prepare", preparing)
    monkeypatch.setattr(synthesizer.decoder, "decode", decoding)
    background = e.submit(background_request, Priority.BACKGROUND)
    e.start()
    _finish(lambda: _collect(background))
    _finish(lambda: _collect(jobs["play"]))
    assert groups[0] == [jobs["play"].id]


def test_a_preempted_batch_on_an_inexact_decoder_sends_nothing_after_the_stop(
    synthesizer, engine, monkeypatch
):
    """On a GPU (not exact across batches) a background sentence may be stopped for a Play only
    while none of it has played. If its first piece is decoded between the stop and the step
    that obeys it, that piece must not be sent: sent, the sentence would be cut short with a
    warning about memory, though memory never ran out."""
    loop = synthesizer.loop
    monkeypatch.setattr(loop, "exact_across_batches", False)
    background_request = SynthesisRequest(
        "第一句话。第二句话。第三句话。", seed=7, voice_lock=False, **FAST
    )
    never_end = {0: None, 1: None, 2: None}
    now = {}

    def spy(step, logits, rows):
        _force_ends(loop, logits, rows, {**never_end, "step": step})
        now["step"] = step

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, spy))
    first = []
    alone = synthesizer.run(
        background_request, on_chunk=lambda c: first.append((now["step"], c.final))
    )
    first_step, final = first[0]
    assert not final  # the first sentence streams: its first piece is not its last

    e = engine()
    jobs = {}
    batches = record_audio_batches(monkeypatch, loop)

    def hook(step, logits, rows):
        spy(step, logits, rows)
        if len(batches) == 1 and step == first_step and "play" not in jobs:
            jobs["play"] = e.submit(PLAY, Priority.INTERACTIVE)

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    jobs["background"] = e.submit(background_request, Priority.BACKGROUND)
    e.start()
    chunks, result = _finish(lambda: _collect(jobs["background"]))
    _finish(lambda: _collect(jobs["play"]))
    assert "play" in jobs and batches[:3] == [
        1,
        1,
        1,
    ]  # background stopped, the Play, background again
    assert not [w for w in result.warnings if "cut short" in w]
    assert [c.index for c in chunks if c.final] == [0, 1, 2]
    np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)


# -- errors -------------------------------------------------------------------------------
def test_a_failed_voice_lock_ends_only_its_own_request(synthesizer, engine, monkeypatch):
    """Locking a request's voice after its first sentence can fail (out of memory on a GPU):
    that request ends with the error; the request it shared a batch with goes on."""
    locked = SynthesisRequest("第一句话。第二句话。", seed=11, **FAST)
    other = SynthesisRequest("今天天气很好。我们去公园。", seed=22, voice_lock=False, **FAST)
    alone = synthesizer.run(other)

    def failing(audio, text):
        raise OutOfMemoryError("no memory left for the voice")

    monkeypatch.setattr(synthesizer, "reference_from_audio", failing)
    e = engine()
    job_locked, job_other = e.submit(locked), e.submit(other)
    e.start()
    with pytest.raises(OutOfMemoryError, match="no memory left for the voice"):
        _finish(lambda: _collect(job_locked))
    chunks, result = _finish(lambda: _collect(job_other))
    assert [c.index for c in chunks if c.final] == [0, 1]
    np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)


def test_an_error_in_a_shared_batch_ends_its_requests_and_spares_the_rest(
    synthesizer, engine, monkeypatch
):
    loop = synthesizer.loop
    behind = SynthesisRequest("第一句话。第二句话。", seed=5, voice_lock=False, **FAST)
    alone = synthesizer.run(behind)
    real = loop.run_stack
    failed = []

    def failing(x, *args):
        if x.shape[0] > 1 and not failed:
            failed.append(x.shape[0])
            raise RuntimeError("a broken kernel")
        return real(x, *args)

    monkeypatch.setattr(loop, "run_stack", failing)
    e = engine()
    first = e.submit(SynthesisRequest("你好。", seed=1, **FAST))
    second = e.submit(SynthesisRequest("今天天气很好。", seed=2, **FAST))
    waiting = e.submit(behind, Priority.BACKGROUND)  # not in the interactive batch
    e.start()
    for job in (first, second):
        with pytest.raises(RuntimeError, match="a broken kernel"):
            _finish(lambda job=job: _collect(job))
    _chunks, result = _finish(lambda: _collect(waiting))
    assert failed == [2]
    np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)


def test_an_engine_call_that_raises_reaches_its_caller_and_the_engine_goes_on(synthesizer, engine):
    e = engine(start=True)
    with pytest.raises(ZeroDivisionError):
        e.call(lambda: 1 / 0)
    assert e.call(lambda: threading.current_thread().name) == "chattts-engine"
    assert _finish(e.submit(PLAY).result).audio.size > 0


def test_out_of_memory_in_a_batch_of_two_requests_gives_each_its_audio_as_alone(
    synthesizer, engine, monkeypatch
):
    loop = synthesizer.loop
    a = SynthesisRequest("第一句话。第二句话。第三句话。", seed=11, voice_lock=False, **FAST)
    b = SynthesisRequest("今天天气很好。我们去公园。然后回家。", seed=22, voice_lock=False, **FAST)
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**50)
    alone_a, alone_b = synthesizer.run(a), synthesizer.run(b)
    real = loop.run_stack
    steps = []

    def failing(x, *args):
        if x.shape[0] > 1:
            steps.append(x.shape[0])
            if len(steps) == 20:  # mid-stream, in the first shared batch
                raise torch.OutOfMemoryError("CUDA out of memory.")
        return real(x, *args)

    monkeypatch.setattr(loop, "run_stack", failing)
    batches = record_audio_batches(monkeypatch, loop)
    e = engine()
    job_a, job_b = e.submit(a), e.submit(b)
    e.start()
    (chunks_a, got_a), (chunks_b, got_b) = (
        _finish(lambda: _collect(job_a)),
        _finish(lambda: _collect(job_b)),
    )
    assert batches == [2, 1, 1, 1, 1, 1, 1]  # halved to one sentence at a time
    for alone, got, chunks in ((alone_a, got_a, chunks_a), (alone_b, got_b, chunks_b)):
        assert [c.index for c in chunks if c.final] == [0, 1, 2]
        assert got.audio.shape == alone.audio.shape
        np.testing.assert_allclose(got.audio, alone.audio, atol=1e-5)


# -- what a request's result says -----------------------------------------------------------
def test_a_token_limit_warning_goes_to_the_request_whose_sentence_hit_it(
    synthesizer, engine, monkeypatch
):
    """Second sentences of two requests share a batch; only the second request's runs to the
    token limit: only its result says so, naming its own sentence."""
    loop = synthesizer.loop
    batches = record_audio_batches(monkeypatch, loop)

    def hook(step, logits, rows):
        ends = {0: 5, 1: 5} if len(batches) == 1 else {0: 5, 1: None}
        _force_ends(loop, logits, rows, {**ends, "step": step})

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    e = engine()
    ending = e.submit(SynthesisRequest("你好。再见。", seed=1, voice_lock=False, **FAST))
    cut = e.submit(SynthesisRequest("今天天气很好。我们去公园。", seed=2, voice_lock=False, **FAST))
    e.start()
    _chunks, ended = _finish(lambda: _collect(ending))
    _chunks, limited = _finish(lambda: _collect(cut))
    assert batches == [2, 2]
    assert ended.warnings == []
    assert [w[:11] for w in limited.warnings if "limit of 48 audio tokens" in w] == ["Sentence 2 "]


def test_a_sentence_the_model_ends_at_once_is_tried_again_without_disturbing_its_batch(
    synthesizer, engine, monkeypatch
):
    loop = synthesizer.loop
    quick = SynthesisRequest("你好。", seed=1, **FAST)
    other = SynthesisRequest("今天天气很好。", seed=2, **FAST)
    alone_other = synthesizer.run(other)
    batches = record_audio_batches(monkeypatch, loop)

    def hook(step, logits, rows):
        if len(batches) == 1:  # only the first pass: its row 0 ends at once
            _force_ends(loop, logits, rows, {0: 0, "step": step})

    monkeypatch.setattr(loop, "filter_step", step_hooked(loop, hook))
    alone_quick = synthesizer.run(quick)
    assert batches == [1, 1] and alone_quick.audio.size > 0  # ended at once, then spoken
    batches.clear()
    e = engine()
    job_quick, job_other = e.submit(quick), e.submit(other)
    e.start()
    chunks, got = _finish(lambda: _collect(job_quick))
    _chunks, got_other = _finish(lambda: _collect(job_other))
    assert batches == [2, 1]  # shared, then the retry of one sentence
    assert [c.final for c in chunks] == [False] * (len(chunks) - 1) + [True]
    np.testing.assert_allclose(got.audio, alone_quick.audio, atol=1e-5)
    np.testing.assert_allclose(got_other.audio, alone_other.audio, atol=1e-5)
