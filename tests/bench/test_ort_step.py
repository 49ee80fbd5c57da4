"""Issue 44's spike: the 20-layer step as one ONNX Runtime graph (bench/support/ort_step.py) is
the same step. In fp32 it computes what the PyTorch step computes; with 8-bit weights it holds the
int8 quality bar on the outlier stress model (only with smoothing, which proves the bar can tell);
and inside the real decode loop, sentences that join a running batch or share a padded one decode
to the tokens they decode to alone."""

import pytest
import torch

from app.decode.llama_step import LlamaStack
from app.decode.loop import DecodeLoop
from app.decode.passes import PassParams
from app.decode.prompts import code_prompt
from app.decode.rows_state import Joining
from bench.support.ort_step import OrtLoop, quantize_blocks
from tests.support.outlier_model import stress_view
from tests.support.precision_compare import compare, prompt_embedding

STEPS = 32
MIN_TOP1, MIN_COSINE = 0.95, 0.99  # the int8 bar (tests/engine/test_int8_quality.py)
TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]


def _ort(view, weights: str, **options) -> OrtLoop:
    reference = DecodeLoop(view, "eager", "fp32")
    return OrtLoop(reference, LlamaStack(view.llama).eval(), weights, **options)


@pytest.fixture(scope="module")
def emb(synthesizer):
    return prompt_embedding(synthesizer.parts, synthesizer.speaker_for_seed(1))


def test_block_quantization_round_trips_within_half_a_step():
    w = torch.randn(6, 64).numpy()
    for bits in (4, 8):
        packed, scales = quantize_blocks(w, bits, 32)
        assert packed.shape == (6, 2, 32 * bits // 8) and scales.shape == (6, 2)
        if bits == 4:
            q = torch.stack(
                [torch.from_numpy(packed & 15), torch.from_numpy(packed >> 4)], -1
            ).reshape(6, 2, 32)
        else:
            q = torch.from_numpy(packed)
        back = (q.float() - (1 << (bits - 1))) * torch.from_numpy(scales)[..., None]
        err = (back.reshape(6, 64) - torch.from_numpy(w)).abs()
        assert bool((err <= torch.from_numpy(scales).repeat_interleave(32, 1) / 2 + 1e-6).all())


def test_the_fp32_graph_is_the_pytorch_step(synthesizer, emb):
    numbers = compare(
        DecodeLoop(synthesizer.parts, "eager", "fp32"), _ort(synthesizer.parts, "fp32"), emb, 16
    )
    assert numbers["first_divergence"] is None and numbers["top1_agreement"] == 1.0
    assert numbers["max_rel"] < 1e-5, numbers


def test_8_bit_weights_hold_the_int8_bar_on_outliers_only_when_smoothed(synthesizer, emb):
    stress = stress_view(synthesizer.parts)
    reference = DecodeLoop(stress, "jit", "fp32")
    smoothed = compare(reference, _ort(stress, "int8"), emb, STEPS)
    assert smoothed["top1_agreement"] >= MIN_TOP1 and smoothed["min_cosine"] >= MIN_COSINE, smoothed
    raw = compare(reference, _ort(stress, "int8", smoothing=None), emb, STEPS)
    assert raw["top1_agreement"] < MIN_TOP1 or raw["min_cosine"] < MIN_COSINE, raw


def _params():
    return PassParams(0.7, 0.7, 20, 1.05, 40, min_new_tokens=5, greedy=False)


def test_in_the_loop_joined_and_padded_rows_decode_as_alone(synthesizer):
    chat = synthesizer.parts
    loop = DecodeLoop(chat, "eager", "fp32")
    decodes_as_alone(chat, loop, OrtLoop(loop, LlamaStack(chat.llama).eval(), "int8"))


def decodes_as_alone(chat, loop: DecodeLoop, runtime) -> None:
    """`loop` (over the model `chat`) stepped by `runtime` (an OrtLoop-like): three sentences,
    two joining a running batch and all three padded into one, decode to the tokens each
    decodes to alone."""
    loop.run_stack = runtime.run_stack  # type: ignore[method-assign]
    loop.allocate_cache = runtime.allocate_cache  # type: ignore[method-assign]

    def prompt(*texts):
        return code_prompt(chat, list(texts), "[speed_5]", None, None, None)

    def alone(text, seed):
        return list(loop.generate(*prompt(text), True, _params(), [seed], eos=625))[-1].tokens[0]

    steps = []

    def admit(live):
        steps.append(live)
        joins = {3: 1, 9: 2}.get(len(steps) - 1)
        return None if joins is None else Joining(*prompt(TEXTS[joins]), [11 + joins])

    joined = list(loop.generate(*prompt(TEXTS[0]), True, _params(), [11], eos=625, admit=admit))[-1]
    padded = list(loop.generate(*prompt(*TEXTS), True, _params(), [21, 22, 23], eos=625))[-1]
    assert max(steps) == 3  # all three were in the batch at once
    for row, text in enumerate(TEXTS):
        assert torch.equal(joined.tokens[row], alone(text, 11 + row)), row
        assert torch.equal(padded.tokens[row], alone(text, 21 + row)), row
