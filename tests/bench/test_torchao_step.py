"""Issue 44's spike on torchao: the PyTorch step with torchao's quantized Linears
(bench/support/torchao_step.py) holds the int8 quality bar on the outlier stress model, and
inside the real decode loop sentences that join a running batch or share a padded one decode to
the tokens they decode to alone."""

from app.decode.llama_step import LlamaStack
from app.decode.loop import DecodeLoop
from bench.support.torchao_step import TorchaoLoop
from tests.support.as_alone import MIN_COSINE, MIN_TOP1, STEPS, decodes_as_alone
from tests.support.outlier_model import stress_view
from tests.support.precision_compare import compare, on_runtime


def _torchao(view, weights: str, **options) -> TorchaoLoop:
    return on_runtime(TorchaoLoop, view, weights, **options)


def test_quantized_linears_in_int8_hold_the_int8_bar_on_outliers(synthesizer, emb):
    stress = stress_view(synthesizer.parts)
    numbers = compare(DecodeLoop(stress, "jit", "fp32"), _torchao(stress, "int8"), emb, STEPS)
    assert numbers["top1_agreement"] >= MIN_TOP1 and numbers["min_cosine"] >= MIN_COSINE, numbers


def test_int4_weights_hold_the_int8_bar_without_outliers_only(synthesizer, emb):
    """int4 per block of 32 (smoothed) stays within the bar on random weights, not on the
    outlier stress model: a finding of issue 44's spike (docs/design/decode-runtimes.md)."""
    plain = compare(
        DecodeLoop(synthesizer.parts, "jit", "fp32"),
        _torchao(synthesizer.parts, "int4"),
        emb,
        STEPS,
    )
    assert plain["top1_agreement"] >= MIN_TOP1 and plain["min_cosine"] >= MIN_COSINE, plain
    stress = stress_view(synthesizer.parts)
    outliers = compare(DecodeLoop(stress, "jit", "fp32"), _torchao(stress, "int4"), emb, STEPS)
    assert outliers["top1_agreement"] < MIN_TOP1 or outliers["min_cosine"] < MIN_COSINE, outliers


def test_in_the_loop_joined_and_padded_rows_decode_as_alone(synthesizer):
    chat = synthesizer.parts
    loop = DecodeLoop(chat, "eager", "fp32")
    decodes_as_alone(chat, loop, TorchaoLoop(loop, LlamaStack(chat.llama).eval(), "int8"))
