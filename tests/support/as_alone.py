"""Whether a decode step keeps a sentence's tokens whatever shares its batch: three sentences, two
joining a running batch and all three padded into one, decode to the tokens each decodes to alone
(tests/engine/test_ort_decode.py, tests/bench/test_ov_step.py, tests/bench/test_torchao_step.py)."""

from __future__ import annotations

import torch

from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.decode.rows_state import Joining

STEPS = 32
MIN_TOP1, MIN_COSINE = 0.95, 0.99  # the int8 bar (tests/engine/test_int8_quality.py)
TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]


def _params():
    return PassParams(0.7, 0.7, 20, 1.05, 40, min_new_tokens=5, greedy=False)


def decodes_as_alone(chat, loop, runtime=None) -> None:
    """`loop` (a DecodeLoop over the model `chat`), stepped by `runtime` (an OrtLoop-like with
    `run_stack` and `allocate_cache`) when given: joined and padded rows decode as alone."""
    if runtime is not None:
        loop.run_stack = runtime.run_stack
        loop.allocate_cache = runtime.allocate_cache

    def prompt(*texts):
        return code_prompt(chat, list(texts), "[speed_5]", None, None, None)

    def alone(text, seed):
        return list(loop.generate(*prompt(text), True, _params(), [seed], eos=625))[-1].tokens[0]

    steps = []

    def admit(live):
        steps.append(live)
        joins = {3: 1, 9: 2}.get(len(steps) - 1)
        return None if joins is None else Joining(*prompt(TEXTS[joins]), [11 + joins])

    joined = list(loop.generate(*prompt(TEXTS[0]), True, _params(), [11], eos=625, admit=admit))
    padded = list(loop.generate(*prompt(*TEXTS), True, _params(), [21, 22, 23], eos=625))
    assert max(steps) == 3  # all three were in the batch at once
    for row, text in enumerate(TEXTS):
        assert torch.equal(joined[-1].tokens[row], alone(text, 11 + row)), row
        assert torch.equal(padded[-1].tokens[row], alone(text, 21 + row)), row
