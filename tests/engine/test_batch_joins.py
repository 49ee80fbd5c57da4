"""Continuous batching: sentences join a running batch between decode steps and leave it when
they end, and each still decodes to exactly what it decodes to alone."""

import numpy as np
import pytest
import torch

from app.core.request import SamplingParams, SynthesisRequest
from app.decode.batch import BatchSession, Row
from app.decode.passes import Generated, PassParams
from app.decode.prompts import code_prompt
from app.decode.rows_state import Joining
from app.synthesis.engine import Engine
from app.synthesis.tickets import Priority
from tests.support.decode_hooks import hooking_steps, record_batch_rows, step_hooked

EOS_AUDIO = 625
STEPS = 40
# Short prompt, then a longer one (the running rows move right to make room), then short again.
TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]
JOIN_AT = {3: 1, 9: 2}  # batch step -> the sentence that joins there
FAST = dict(refine_text=False, sampling=SamplingParams(max_new_tokens=48))


def _params(greedy):
    # A repetition penalty, top-p/top-k and a minimum length: each depends on a row's own count.
    return PassParams(0.7, 0.7, 20, 1.05, STEPS, min_new_tokens=5, greedy=greedy)


def _prompt(chat, text):
    return code_prompt(chat, [text], "[speed_5]", None, None, None)


def _alone(loop, chat, text, seed, greedy):
    emb, mask = _prompt(chat, text)
    return list(loop.generate(emb, mask, True, _params(greedy), [seed], eos=EOS_AUDIO))[-1]


@pytest.mark.parametrize("greedy", [False, True], ids=["sampled", "greedy"])
def test_sentences_joining_a_running_batch_decode_as_if_alone(synthesizer, greedy):
    loop, chat = synthesizer.loop, synthesizer.parts
    steps, asked = [], []

    def admit(live):
        step = len(steps)
        asked.append(live)
        if step not in JOIN_AT:
            return None
        emb, mask = _prompt(chat, TEXTS[JOIN_AT[step]])
        return Joining(emb, mask, [11 + JOIN_AT[step]])

    with hooking_steps(loop, lambda step, logits, rows: steps.append(rows.tolist())):
        emb, mask = _prompt(chat, TEXTS[0])
        together = list(
            loop.generate(emb, mask, True, _params(greedy), [11], eos=EOS_AUDIO, admit=admit)
        )[-1]
    assert isinstance(together, Generated) and len(together.tokens) == 3
    # Side by side: fewer steps than the tokens of the three sentences together.
    assert len(steps) < sum(t.shape[0] for t in together.tokens)
    if greedy:
        # Greedy on random weights never ends a sentence early: each runs its 40 tokens from
        # the step it joined at and leaves at its own end; the last joined at step 9.
        assert len(steps) == 9 + STEPS
        assert steps[0] == [0] and steps[3] == [0, 1] and steps[9] == [0, 1, 2]
        assert steps[STEPS] == [1, 2] and steps[3 + STEPS] == [2]
        assert (
            asked[:5] == [1, 1, 1, 1, 2] and asked[10] == 3
        )  # live rows, asked before a step's joiners
    for row, text in enumerate(TEXTS):
        alone = _alone(loop, chat, text, 11 + row, greedy)
        assert torch.equal(together.tokens[row], alone.tokens[0])
        torch.testing.assert_close(together.hiddens[row], alone.hiddens[0], rtol=1e-4, atol=1e-4)


def test_speak_asks_the_session_for_rows_that_join_and_groups_that_leave(synthesizer, monkeypatch):
    """FastSpeech asks the running batch's session between steps: a joining row is numbered
    after the batch's and said as `spoken` gives it; a group that leaves stops decoding at once
    and gets no piece."""
    request = SynthesisRequest("第一句话。今天天气很好。", seed=5, **FAST)
    first = Row("第一句话。", 0, request, None, None, 1)
    joining = Row("今天天气很好。", 1, request, None, None, 2)
    steps, said = [], []

    class Session(BatchSession):
        def join(self, live):
            return [joining] if len(steps) == 3 else []

        def leave(self):
            return {2} if len(steps) >= 8 else set()

    def spoken(rows):
        said.extend(rows)
        return rows

    monkeypatch.setattr(
        synthesizer.loop,
        "filter_step",
        step_hooked(synthesizer.loop, lambda step, logits, rows: steps.append(rows.tolist())),
    )
    pieces = list(synthesizer.speech.speak([first], "[speed_5]", _params(True), Session(), spoken))
    assert said == [joining]
    assert steps[2] == [0] and steps[3] == steps[7] == [0, 1] and steps[8] == [0]
    assert [(p.row, p.final) for p in pieces] == [(0, True)]  # not streamed: one piece


def _join_during(engine, synthesizer, monkeypatch, first, second, priority=Priority.INTERACTIVE):
    """Submit `second` at the 5th step of `first`'s batch; both results."""
    jobs = {}

    def hook(step, logits, rows):
        if step == 5 and "second" not in jobs:
            jobs["second"] = engine.submit(second, priority)

    monkeypatch.setattr(synthesizer.loop, "filter_step", step_hooked(synthesizer.loop, hook))
    job = engine.submit(first)
    engine.start()
    result = job.result()
    return result, jobs["second"].result()


def test_a_request_arriving_during_a_batch_joins_it_and_sounds_as_alone(
    synthesizer, engine, monkeypatch
):
    a = SynthesisRequest("第一句话。", seed=11, **FAST)
    b = SynthesisRequest("今天天气很好。", seed=22, **FAST)
    alone_a, alone_b = synthesizer.run(a), synthesizer.run(b)
    passes = record_batch_rows(monkeypatch, synthesizer.loop)
    result_a, result_b = _join_during(engine(), synthesizer, monkeypatch, a, b)
    assert passes == [[1, 1]]  # one audio pass: b joined a's batch
    np.testing.assert_allclose(result_a.audio, alone_a.audio, atol=1e-5)
    np.testing.assert_allclose(result_b.audio, alone_b.audio, atol=1e-5)
    assert result_b.audio.size > 0


def test_the_rest_of_a_request_joins_once_its_first_sentence_ended(
    synthesizer, engine, monkeypatch
):
    """b's first sentence joins a's running batch; as each first sentence ends (the other still
    decoding), that request's second sentence joins the same batch too."""
    a = SynthesisRequest("第一句话。第二句话。", seed=11, voice_lock=False, **FAST)
    b = SynthesisRequest("今天天气很好。我们去公园。", seed=22, voice_lock=False, **FAST)
    alone_b = synthesizer.run(b)
    passes = record_batch_rows(monkeypatch, synthesizer.loop)
    _result_a, result_b = _join_during(engine(), synthesizer, monkeypatch, a, b)
    assert passes == [[1, 1, 1, 1]]
    np.testing.assert_allclose(result_b.audio, alone_b.audio, atol=1e-5)


def test_joins_respect_the_batch_cap_and_priority(synthesizer, monkeypatch):
    a = SynthesisRequest("第一句话。", seed=11, **FAST)
    b = SynthesisRequest("今天天气很好。", seed=22, **FAST)
    passes = record_batch_rows(monkeypatch, synthesizer.loop)
    capped = Engine(synthesizer, start=False, max_batch=1)
    try:
        _join_during(capped, synthesizer, monkeypatch, a, b)
    finally:
        capped.close(timeout=60)
    assert passes == [[1], [1]]  # no room: b waited for a's batch to end
    passes.clear()
    other = Engine(synthesizer, start=False)
    try:
        _join_during(other, synthesizer, monkeypatch, a, b, Priority.BACKGROUND)
    finally:
        other.close(timeout=60)
    assert passes == [[1], [1]]  # a background request does not join an interactive batch
