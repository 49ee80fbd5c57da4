"""int8, the CPU default, holds against fp32 on a model with activation outlier channels.

The stress model (tests/support/outlier_model.py) has a few input channels of every Linear 20-100x
larger than the rest, at the same fp32 function. The default precision on a CPU must stay within
THRESHOLDS of fp32 there; int8 as it was (one scale per tensor, no smoothing) does not, which
proves the check can tell them apart.
"""

import pytest
import torch

from app.decode import int8
from app.decode import precision as prec
from app.decode.loop import DecodeLoop
from tests.support.outlier_model import stress_view
from tests.support.precision_compare import compare, prompt_embedding

STEPS = 32
# Teacher-forced share of codes whose argmax matches fp32's, and the worst step's logit cosine.
MIN_TOP1, MIN_COSINE = 0.95, 0.99


def _holds(numbers: dict) -> bool:
    return numbers["top1_agreement"] >= MIN_TOP1 and numbers["min_cosine"] >= MIN_COSINE


def _int8_loop(view, recipe):
    """A loop whose step is the stack made int8 by `recipe` (eager: the step itself is compared)."""
    loop = DecodeLoop(view, "eager", "fp32")

    def calibration():
        return int8.calibration_prompt(loop.emb_text, loop.emb_code), loop._cos, loop._sin

    loop._stack = int8.quantize(loop._stack, calibration, recipe=recipe)
    return loop


@pytest.fixture(scope="module")
def emb(synthesizer):
    return prompt_embedding(synthesizer.parts, synthesizer.speaker_for_seed(1))


@pytest.fixture(scope="module")
def stress(chat):
    return stress_view(chat)


@pytest.fixture(scope="module")
def reference(stress):
    return DecodeLoop(stress, "jit", "fp32")


def _linear_input_maxima(view, emb):
    loop = DecodeLoop(view, "eager", "fp32")
    return int8._input_maxima(loop._stack, emb, loop._cos, loop._sin)


def test_the_stress_model_has_outliers_and_the_same_fp32_function(chat, emb, reference):
    without = stress_view(chat, outliers=False)
    numbers = compare(DecodeLoop(without, "jit", "fp32"), reference, emb, 16)
    assert numbers["top1_agreement"] == 1.0 and numbers["min_cosine"] > 0.9999
    # Every Linear's input has channels far above its typical channel, only with outliers.
    for maxima, lowest, highest in (
        (_linear_input_maxima(stress_view(chat), emb), 15, None),
        (_linear_input_maxima(without, emb), None, 10),
    ):
        ratios = [float(m.max() / m.median()) for m in maxima.values()]
        assert len(ratios) == 7 * len(chat.llama.layers)
        if lowest is not None:
            assert min(ratios) > lowest, ratios
        if highest is not None:
            assert max(ratios) < highest, ratios


def test_auto_on_a_cpu_is_int8_and_holds_on_outliers(stress, reference, emb):
    chosen = DecodeLoop(stress, "jit", "auto")
    assert chosen.precision == "int8" and chosen.mode == "jit", chosen.jit_error
    numbers = compare(reference, chosen, emb, STEPS)
    assert _holds(numbers), numbers


def test_per_tensor_int8_fails_the_same_check_and_the_recipe_passes_it(stress, reference, emb):
    assert not _holds(compare(reference, _int8_loop(stress, int8.PER_TENSOR), emb, STEPS))
    assert not _holds(compare(reference, _int8_loop(stress, int8.Recipe(alpha=None)), emb, STEPS))
    assert _holds(compare(reference, _int8_loop(stress, int8.RECIPE), emb, STEPS))


def test_smoothing_keeps_the_fp32_function(stress, emb):
    """The folded scales change the weights, not what the stack computes."""
    loop = DecodeLoop(stress, "eager", "fp32")
    x, cos, sin = int8.calibration_prompt(loop.emb_text, loop.emb_code), loop._cos, loop._sin
    t = x.shape[1]
    args = (
        cos[:t][None, None],
        sin[:t][None, None],
        torch.ones(t, t, dtype=torch.bool).tril_()[None, None],
    )

    def run(stack):
        cache = torch.zeros(loop.layers, 1, loop.heads, t, loop.head_dim)
        with torch.inference_mode():
            return stack(x, *args, cache, cache.clone(), torch.arange(t), t)

    import copy

    smoothed = copy.deepcopy(loop._stack)
    before = [p.clone() for p in smoothed.parameters()]
    int8.smooth(smoothed, x, cos, sin, alpha=0.5)
    assert any(not torch.equal(a, b) for a, b in zip(before, smoothed.parameters()))
    torch.testing.assert_close(run(smoothed), run(loop._stack), rtol=1e-4, atol=1e-4)


def test_int8_leaves_the_callers_fp32_weights_alone_unless_given_them(chat, stress):
    weights = [p.clone() for p in stress.llama.parameters()]
    DecodeLoop(stress, "jit", "int8")
    assert all(torch.equal(a, b) for a, b in zip(weights, stress.llama.parameters()))


def test_auto_picks_int8_on_a_cpu_with_its_kernels_and_fp32_without(monkeypatch):
    assert prec.choose("auto", "cpu") == ("int8", None)
    assert prec.choose("fp32", "cpu") == ("fp32", None)
    assert prec.choose("auto", "cuda", (8, 0)) == ("bf16", None)
    monkeypatch.setattr(prec, "int8_kernels", lambda: False)
    assert prec.choose("auto", "cpu") == ("fp32", None)
