"""The step hook tests and benchmarks put on the decode loop from outside
(tests/support/decode_hooks.py): it sees every step once, numbered as the loop numbers them,
with the raw logits the tokens are chosen from, and comes off again."""

import sys
from pathlib import Path

import torch

from app.decode.loop import DecodeLoop
from app.decode.passes import PassParams
from app.decode.prefill import prefill
from app.decode.prompts import code_prompt
from app.decode.rows_state import Joining
from tests.support.decode_hooks import hooking_steps

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench import gpu_check

EOS_AUDIO = 625
GREEDY = dict(temperature=1.0, top_p=1.0, top_k=0, repetition_penalty=1.0, greedy=True)


def _first_step_logits(loop, chat, texts):
    """The audio logits of a batch's first step, computed without the loop's own pass."""
    emb, mask = code_prompt(chat, texts, "[speed_5]", None, None, None)
    with torch.inference_mode():
        k, v = loop.allocate_cache(emb.shape[0], emb.shape[1])
        return loop.logits(prefill(loop.run_stack, emb, mask.bool(), k, v), True)


def test_gpu_checks_greedy_run_records_the_first_steps_logits_on_a_cpu_loop(chat):
    loop = DecodeLoop(chat, "eager", "fp32")
    tokens, first = gpu_check._greedy(loop, chat, 4)
    assert [t.shape for t in tokens] == [(4, 4)] * 3  # forced to 4 tokens each
    expected = _first_step_logits(loop, chat, gpu_check.TEXTS)
    assert first.shape == expected.shape == (3 * 4, 626)
    torch.testing.assert_close(first, expected.float(), rtol=1e-5, atol=1e-5)
    assert "filter_step" not in vars(loop)  # the hook came off


def test_the_hook_numbers_steps_as_the_loop_does_when_sentences_join(chat):
    """A sentence joining at step 2 is at its own token 0 there; the hook still says step 2."""
    loop = DecodeLoop(chat, "eager", "fp32")
    seen, asked = [], []

    def admit(_live):
        asked.append(None)
        if len(asked) != 3:  # asked before steps 0, 1, 2, ...
            return None
        emb, mask = code_prompt(chat, ["再见。"], "[speed_5]", None, None, None)
        return Joining(emb, mask, [2])

    emb, mask = code_prompt(chat, ["你好，世界。"], "[speed_5]", None, None, None)
    params = PassParams(max_new_tokens=5, min_new_tokens=5, **GREEDY)
    with hooking_steps(loop, lambda step, logits, rows: seen.append((step, rows.tolist()))):
        result = list(loop.generate(emb, mask, True, params, [1], eos=EOS_AUDIO, admit=admit))[-1]
    assert seen == [(0, [0]), (1, [0]), (2, [0, 1]), (3, [0, 1]), (4, [0, 1]), (5, [1]), (6, [1])]
    assert [t.shape[0] for t in result.tokens] == [5, 5]


def test_hooks_stack_and_come_off_in_turn(chat):
    loop = DecodeLoop(chat, "eager", "fp32")
    outer, inner = [], []
    emb, mask = code_prompt(chat, ["你好。"], "[speed_5]", None, None, None)
    params = PassParams(max_new_tokens=3, min_new_tokens=3, **GREEDY)
    with hooking_steps(loop, lambda step, *_: outer.append(step)):
        with hooking_steps(loop, lambda step, *_: inner.append(step)):
            list(loop.generate(emb, mask, True, params, [1], eos=EOS_AUDIO))
        list(loop.generate(emb, mask, True, params, [1], eos=EOS_AUDIO))
    list(loop.generate(emb, mask, True, params, [1], eos=EOS_AUDIO))
    assert inner == [0, 1, 2] and outer == [0, 1, 2, 0, 1, 2]
