"""The decode loop's memory estimate (the batch size is chosen from it) equals what its caches
really take, and a sentence whose numbers become invalid is named by its place in the batch."""

import pytest
import torch

from app.decode.loop import DecodeLoop
from app.decode.passes import nonfinite_error
from app.model.store import VERIFY_COMMAND


@pytest.fixture(scope="module")
def loop(synthesizer):
    return DecodeLoop(synthesizer.parts, "eager", "fp32")


@pytest.fixture(scope="module")
def bf16_loop(synthesizer):
    return DecodeLoop(synthesizer.parts, "eager", "bf16")


def test_by_default_the_loop_compiles_at_fp32_and_leaves_chattts_weights_alone(synthesizer):
    made = DecodeLoop(synthesizer.parts)
    assert (made.mode, made.precision) == ("jit", "fp32") and isinstance(
        made._stack, torch.jit.ScriptModule
    )
    DecodeLoop(synthesizer.parts, "eager", "bf16")  # converts a copy unless told otherwise
    assert next(synthesizer.parts.llama.parameters()).dtype == torch.float32
    with pytest.raises(ValueError, match="jit, eager or ort, not 'graph'"):
        DecodeLoop(synthesizer.parts, "graph")


@pytest.mark.parametrize("length", [1, 37, 512])
@pytest.mark.parametrize("precision", ["fp32", "bf16"])
def test_cache_bytes_per_row_is_what_one_rows_caches_take(request, precision, length):
    loop = request.getfixturevalue("loop" if precision == "fp32" else "bf16_loop")
    k, v = loop.allocate_cache(1, length)
    assert k.dtype == (torch.float32 if precision == "fp32" else torch.bfloat16)
    assert loop.cache_bytes_per_row(length) == k.nbytes + v.nbytes
    k2, v2 = loop.allocate_cache(3, length)
    assert 3 * loop.cache_bytes_per_row(length) == k2.nbytes + v2.nbytes


def test_the_fixed_shape_cache_starts_as_zeros(loop):
    k, v = loop._zero_cache(2, 8)
    assert not k.any() and not v.any() and k.shape == v.shape == loop.allocate_cache(2, 8)[0].shape


@pytest.mark.parametrize(
    "precision, words", [("fp16", "fp32"), ("bf16", "fp32"), ("fp32", "verify")]
)
def test_invalid_numbers_name_the_sentence_and_what_to_do(precision, words):
    message = str(nonfinite_error(precision, torch.tensor([False, False, True, True])))
    assert "sentence 3" in message and words in message
    if precision != "fp32":
        assert precision in message
        assert "(--precision fp32, or Model > Precision: fp32)" in message  # the switch, both ways
    else:
        assert f"({VERIFY_COMMAND})" in message
