"""One engine, many clients: sentences of different requests share batches and still sound
as they would alone; one request is cancelled while another goes on; interactive requests go
ahead of background ones, also by stopping a background batch that is running."""

import threading

import numpy as np
import pytest

from app.core.errors import SynthesisCancelled, VoiceError
from app.core.request import AudioChunk, SamplingParams, SynthesisRequest, SynthesisResult
from app.synthesis.tickets import Priority
from tests.support.decode_hooks import (
    hooking_steps,
    record_audio_batches,
    record_batch_rows,
    step_hooked,
)

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))
A = SynthesisRequest("第一句话。第二句话。第三句话。", seed=11, **FAST)
B = SynthesisRequest("今天天气很好。我们去公园。然后回家。", seed=22, **FAST)


def _collect(job, into=None):
    chunks = []
    for item in job:
        if isinstance(item, AudioChunk):
            chunks.append(item)
            if into is not None:
                into.append((job.id, "chunk"))
        else:
            if into is not None:
                into.append((job.id, "result"))
            return chunks, item


def test_two_clients_at_once_hear_what_each_hears_alone(synthesizer, engine, monkeypatch):
    alone_a, alone_b = synthesizer.run(A), synthesizer.run(B)
    passes = record_batch_rows(monkeypatch, synthesizer.loop)
    e = engine()
    job_a, job_b = e.submit(A), e.submit(B)
    e.start()
    (chunks_a, result_a), (chunks_b, result_b) = _collect(job_a), _collect(job_b)
    # Both first sentences in one batch; the other four (two of each) join it as the first
    # sentences end, or form the next batch.
    assert passes[0][0] == 2 and sum(map(sum, passes)) == 6
    for alone, result, chunks in ((alone_a, result_a, chunks_a), (alone_b, result_b, chunks_b)):
        assert result.speaker == alone.speaker and result.segments == 3
        assert [c.index for c in chunks if c.final] == [0, 1, 2]
        assert result.audio.shape == alone.audio.shape
        np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)
    assert result_a.speaker != result_b.speaker  # two voices really shared the batches


def test_cancelling_one_client_leaves_the_other_as_it_would_be_alone(synthesizer, engine):
    alone_b = synthesizer.run(B)
    e = engine()
    job_a, job_b = e.submit(A), e.submit(B)
    e.start()
    seen = []
    with pytest.raises(SynthesisCancelled):
        for item in job_a:
            seen.append(item)
            job_a.cancel()  # after its first piece
    assert len(seen) == 1 and isinstance(seen[0], AudioChunk)
    chunks_b, result_b = _collect(job_b)
    np.testing.assert_allclose(result_b.audio, alone_b.audio, atol=1e-5)
    assert [c.index for c in chunks_b if c.final] == [0, 1, 2]


def test_a_cancelled_clients_rows_leave_the_running_batch_at_once(synthesizer, engine):
    """Its sentences stop being decoded at the next step (the others no longer pay for them),
    and the other client still hears exactly what it hears alone."""
    long = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48, min_new_tokens=40))
    a = SynthesisRequest("第一句话。", seed=11, **long)
    b = SynthesisRequest("今天天气很好。", seed=22, **long)
    alone_b = synthesizer.run(b)
    steps: list[list[int]] = []
    with hooking_steps(synthesizer.loop, lambda step, logits, rows: steps.append(rows.tolist())):
        e = engine()
        job_a, job_b = e.submit(a), e.submit(b)
        e.start()
        with pytest.raises(SynthesisCancelled):
            for item in job_a:
                assert isinstance(item, AudioChunk)
                job_a.cancel()  # after its first piece, mid-sentence
                cancelled_at = len(steps)
        chunks_b, result_b = _collect(job_b)
    assert steps[0] == [0, 1]  # one batch: a's row 0, b's row 1
    # The step running while cancel() returned may still hold row 0; none after it does, and b
    # went on (each sentence is at least 40 tokens, its first piece came at about 16).
    after = steps[cancelled_at + 1 :]
    assert len(after) > 10 and all(rows == [1] for rows in after), steps
    np.testing.assert_allclose(result_b.audio, alone_b.audio, atol=1e-5)


def test_an_interactive_request_is_served_before_waiting_background_work(synthesizer, engine):
    e = engine()
    order = []
    background = e.submit(A, Priority.BACKGROUND)
    play = e.submit(SynthesisRequest("你好。", seed=3, **FAST), Priority.INTERACTIVE)
    e.start()
    threads = [threading.Thread(target=_collect, args=(job, order)) for job in (background, play)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert (play.id, "result") in order and (background.id, "result") in order
    assert order.index((play.id, "result")) < order.index((background.id, "chunk"))


def test_an_interactive_request_stops_a_running_background_batch_which_then_continues(
    synthesizer, engine, monkeypatch
):
    """The Play arrives at the 5th step of the background request's second batch: that batch
    stops, the Play is decoded, and the background sentences go on where they stopped, so
    the background audio is still what it would be alone."""
    long_text = SynthesisRequest(
        "第一句话。第二句话。第三句话。第四句话。", seed=7, voice_lock=False, **FAST
    )
    alone = synthesizer.run(long_text)
    e = engine()
    play_request = SynthesisRequest("你好。", seed=3, **FAST)
    jobs = {}
    batches = record_audio_batches(monkeypatch, synthesizer.loop)
    hooked_before = "filter_step" in vars(synthesizer.loop)  # by an earlier test

    def hook(step, logits, rows):
        if len(batches) == 2 and step == 5 and "play" not in jobs:
            jobs["play"] = e.submit(play_request, Priority.INTERACTIVE)

    monkeypatch.setattr(synthesizer.loop, "filter_step", step_hooked(synthesizer.loop, hook))
    background = e.submit(long_text, Priority.BACKGROUND)
    order = []
    e.start()
    chunks, result = _collect(background, order)
    _play_chunks, play_result = _collect(jobs["play"])
    assert not hooked_before
    # background first sentence, background rest (stopped), the Play, background rest again
    assert batches == [1, 3, 1, 3]
    assert play_result.segments == 1 and play_result.audio.size > 0
    assert [c.index for c in chunks if c.final] == [0, 1, 2, 3]
    np.testing.assert_allclose(result.audio, alone.audio, atol=1e-5)


def test_a_failing_request_does_not_disturb_the_others(synthesizer, engine):
    alone_a = synthesizer.run(A)
    e = engine()
    bad = e.submit(SynthesisRequest("你好。", speaker="garbage", **FAST))
    good = e.submit(A)
    e.start()
    with pytest.raises(VoiceError):
        list(bad)
    _chunks, result = _collect(good)
    np.testing.assert_allclose(result.audio, alone_a.audio, atol=1e-5)


def test_a_job_ends_with_its_result(synthesizer, engine):
    e = engine(start=True)
    result = e.submit(SynthesisRequest("你好。", **FAST)).result()
    assert isinstance(result, SynthesisResult) and result.segments == 1 and result.audio.size > 0


def test_the_out_of_memory_cap_ends_when_the_engine_has_nothing_left_to_do(
    synthesizer, engine, monkeypatch
):
    import torch

    from app.decode import memory

    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**50)  # room for a batch of 4
    request = SynthesisRequest(
        "第一句话。第二句话。第三句话。第四句话。第五句话。", voice_lock=False, **FAST
    )
    failed = []
    real = synthesizer.loop.run_stack

    def once(x, *args):
        if x.shape[0] > 1 and not failed:
            failed.append(x.shape[0])
            raise torch.OutOfMemoryError("CUDA out of memory.")
        return real(x, *args)

    monkeypatch.setattr(synthesizer.loop, "run_stack", once)
    sizes = record_audio_batches(monkeypatch, synthesizer.loop)
    e = engine(start=True)
    first = e.submit(request).result()
    assert failed == [4] and sizes == [1, 4, 2, 2]  # halved after running out
    sizes.clear()
    second = e.submit(request).result()
    assert sizes == [1, 4]  # full batches again
    np.testing.assert_allclose(second.audio, first.audio, atol=1e-5)
