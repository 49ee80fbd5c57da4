"""The int8 variants the benchmarks compare with the shipped step (bench/support/int8_variants.py):
rows built at other activation levels than this CPU's, and int8 weights with fp32 activations."""

import warnings

import pytest
import torch

from app.decode import int8_levels, int8_rows
from app.decode.int8_levels import FULL, SAFE, row_levels
from app.decode.int8_rows import RowScaledLinear
from app.decode.loop import DecodeLoop
from bench.precision_quality import _loop
from bench.support.int8_variants import at_levels, weights_only


def _layer() -> RowScaledLinear:
    torch.manual_seed(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RowScaledLinear([torch.nn.Linear(64, 32, bias=False)])


@pytest.mark.parametrize("levels", [FULL, SAFE])
def test_rows_are_built_at_the_levels_asked_and_the_cpus_come_back(levels):
    layer = at_levels(levels, _layer)
    assert layer.scale == pytest.approx(1.0 / levels)
    assert int8_rows.row_levels() == row_levels()  # the probe's answer is back for the rest


def test_weights_only_multiplies_fp32_activations_by_the_int8_weights(synthesizer):
    loop = weights_only(DecodeLoop(synthesizer.parts, "eager", "int8"))
    linears = [m for m in loop._stack.modules() if isinstance(m, RowScaledLinear)]
    assert linears
    for m in linears[:4]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            weight = m.params._weight_bias()[0].dequantize()
        x = torch.randn(3, m.in_features)
        exact = x @ weight.T
        with torch.no_grad():
            torch.testing.assert_close(m(x), exact, rtol=1e-4, atol=1e-4)
            base = torch.randn(3, m.out_features)
            torch.testing.assert_close(m.add_to(base, x), base + exact, rtol=1e-4, atol=1e-4)
        # The shipped layer rounds its activations: not the same numbers.
        with torch.no_grad():
            assert not torch.allclose(type(m).scaled(m, x)[0], m.scaled(x)[0], atol=1e-6)


def test_the_cpus_levels_come_back_when_building_fails():
    def failing():
        raise RuntimeError("a build that fails")

    with pytest.raises(RuntimeError):
        at_levels(SAFE, failing)
    assert int8_rows.row_levels is int8_levels.row_levels


def test_precision_quality_builds_its_int8_variants(synthesizer):
    seven_bit = _loop(synthesizer.parts, "int8-7bit")  # compiled: its layers are scripted
    linears = [
        m
        for m in seven_bit._stack.modules()
        if getattr(m, "original_name", "") == "RowScaledLinear"
    ]
    assert linears and all(m.scale == pytest.approx(1.0 / SAFE) for m in linears)
    only_weights = _loop(synthesizer.parts, "int8-weights-only")
    rows = [m for m in only_weights._stack.modules() if isinstance(m, RowScaledLinear)]
    assert rows and all(hasattr(m, "_fp32_weight") for m in rows)


def test_weights_only_refuses_a_compiled_step(synthesizer):
    with pytest.raises(ValueError, match="eager"):
        weights_only(DecodeLoop(synthesizer.parts, "jit", "int8"))
