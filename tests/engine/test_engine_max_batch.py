"""A client's cap on how many sentences are decoded at once (serve --max-batch): the batches
obey it and the audio is what each request gets alone."""

import numpy as np

from app.core.request import SamplingParams, SynthesisRequest
from app.decode import memory
from app.synthesis.engine import Engine
from tests.support.decode_hooks import record_batch_rows, step_hooked

FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))
A = SynthesisRequest("第一句话。第二句话。第三句话。", seed=11, **FAST)
B = SynthesisRequest("今天天气很好。我们去公园。然后回家。", seed=22, **FAST)


def _widths(monkeypatch, loop) -> list[int]:
    """Sentences decoded at each step (joiners included)."""
    widths = []
    monkeypatch.setattr(
        loop,
        "filter_step",
        step_hooked(loop, lambda _step, _logits, rows: widths.append(rows.numel())),
    )
    return widths


def test_max_batch_caps_every_batch_and_keeps_each_requests_audio(synthesizer, monkeypatch):
    alone = [synthesizer.run(A), synthesizer.run(B)]
    passes = record_batch_rows(monkeypatch, synthesizer.loop)
    widths = _widths(monkeypatch, synthesizer.loop)
    engine = Engine(synthesizer, start=False, max_batch=3)
    try:
        jobs = [engine.submit(A), engine.submit(B)]
        engine.start()
        results = [job.result() for job in jobs]
    finally:
        engine.close(timeout=60)
    # Six sentences; never more than 3 decoded at once, those joining a running batch included.
    assert max(widths) == 3 and sum(map(sum, passes)) == 6
    for one, result in zip(alone, results):
        np.testing.assert_allclose(result.audio, one.audio, atol=1e-5)


def test_without_a_cap_memory_alone_decides(synthesizer, monkeypatch):
    widths = _widths(monkeypatch, synthesizer.loop)
    engine = Engine(synthesizer, start=False)
    try:
        jobs = [engine.submit(A), engine.submit(B)]
        engine.start()
        for job in jobs:
            job.result()
    finally:
        engine.close(timeout=60)
    assert max(widths) == 4


def test_more_clients_fill_batches_up_to_the_measured_cap(synthesizer, monkeypatch):
    """A measured cap above the device's constant (app/decode/row_cap.py) lets that many
    clients' sentences share a batch, each still sounding as it does alone."""
    fast = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=24))
    requests = [SynthesisRequest(f"第{n}个客户的句子。", seed=30 + n, **fast) for n in range(7)]
    alone = [synthesizer.run(r) for r in requests]
    monkeypatch.setattr(synthesizer.loop, "row_cap", 6)
    monkeypatch.setattr(memory, "free_bytes", lambda _device: 2**40)  # the cap alone decides
    widths = _widths(monkeypatch, synthesizer.loop)
    engine = Engine(synthesizer, start=False)
    try:
        jobs = [engine.submit(r) for r in requests]
        engine.start()
        results = [job.result() for job in jobs]
    finally:
        engine.close(timeout=60)
    assert max(widths) == 6 and widths[0] == 6
    for one, result in zip(alone, results):
        np.testing.assert_allclose(result.audio, one.audio, atol=1e-5)
