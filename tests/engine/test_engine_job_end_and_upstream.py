"""A job's end, and ChatTTS's own decoder (Synthesizer(decode="upstream")) serving clients of
one Engine. The scheduler's edges with our decode loop are in test_scheduler_edges.py."""

import numpy as np
import pytest

from app.core.errors import SynthesisCancelled
from app.core.request import SynthesisRequest, SynthesisResult
from app.synthesis.engine import Engine
from tests.engine.test_scheduler_edges import FAST, PLAY, _collect, _finish


# -- a job's end ----------------------------------------------------------------------------
def test_a_job_that_ended_answers_again_instead_of_waiting_forever(synthesizer):
    e = Engine(synthesizer)
    try:
        job = e.submit(PLAY)
        first = _finish(job.result)
        assert isinstance(first, SynthesisResult)
        assert _finish(job.result) is first
        stopped = e.submit(SynthesisRequest("第一句话。第二句话。", **FAST))
        stopped.cancel()
        for _ in range(2):
            with pytest.raises(SynthesisCancelled):
                _finish(stopped.result)
    finally:
        e.close(timeout=60)


def test_closing_an_engine_that_never_started_ends_its_jobs(synthesizer):
    e = Engine(synthesizer, start=False)
    job = e.submit(PLAY)
    e.close(timeout=60)
    with pytest.raises(SynthesisCancelled):
        _finish(job.result)
    assert not e._thread.is_alive()


# -- ChatTTS's own decoder through the engine ----------------------------------------------
@pytest.fixture(scope="module")
def upstream(tiny_model):
    from app.synthesis.synthesizer import Synthesizer

    synth = Synthesizer(tiny_model, device="cpu", decode="upstream")
    synth.load()
    return synth


def test_upstream_decoder_serves_two_clients_each_as_alone_and_never_mixes_them(
    upstream, monkeypatch
):
    a = SynthesisRequest("第一句话。第二句话。第三句话。", seed=11, **FAST)
    b = SynthesisRequest("今天天气很好。我们去公园。", seed=22, **FAST)
    alone_a, alone_b = upstream.run(a), upstream.run(b)
    texts = []
    real = upstream.chat.infer

    def recording(batch, **kwargs):
        texts.append(list(batch))
        return real(batch, **kwargs)

    monkeypatch.setattr(upstream.chat, "infer", recording)
    e = Engine(upstream, start=False)
    try:
        job_a, job_b = e.submit(a), e.submit(b)
        e.start()
        (_ca, got_a), (_cb, got_b) = (
            _finish(lambda: _collect(job_a)),
            _finish(lambda: _collect(job_b)),
        )
    finally:
        e.close(timeout=60)
    sentences_a, sentences_b = (
        set(upstream.prepare(a.text).segments),
        set(upstream.prepare(b.text).segments),
    )
    assert len(texts) == 4  # each request: its first sentence, then its rest
    assert all(set(t) <= sentences_a or set(t) <= sentences_b for t in texts)
    assert got_a.decode == "upstream"
    np.testing.assert_allclose(got_a.audio, alone_a.audio, atol=1e-5)
    np.testing.assert_allclose(got_b.audio, alone_b.audio, atol=1e-5)


def test_upstream_tries_a_sentence_the_model_ends_at_once_a_bounded_number_of_times(
    upstream, monkeypatch
):
    from app.synthesis.decoders import EMPTY_RETRIES

    seeds = []

    def silent(batch, params_infer_code=None, **kwargs):
        seeds.append(params_infer_code.manual_seed)
        return [np.zeros(0, dtype=np.float32) for _ in batch]

    monkeypatch.setattr(upstream.chat, "infer", silent)
    result = upstream.run(SynthesisRequest("你好。", seed=40, **FAST))
    assert seeds == [
        40 + n for n in range(EMPTY_RETRIES + 1)
    ]  # once, then each retry with other draws
    assert result.segments == 1 and result.audio.size == 0
