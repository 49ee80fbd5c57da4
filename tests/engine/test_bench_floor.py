"""bench/decode.py's matmul-only floor multiplies with every matrix of the step, whatever the
precision made of them: int8's row-scaled layers once read as none, and the floor as 0 ms."""

import sys
from pathlib import Path

import pytest

from app.decode.loop import DecodeLoop

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench.decode import _matmul_floor, floor_layers


@pytest.mark.parametrize("precision, per_layer", [("fp32", 7), ("int8", 4)])
def test_the_floor_finds_every_matrix_of_each_layer(synthesizer, precision, per_layer):
    loop = DecodeLoop(synthesizer.parts, "jit", precision)
    layers = floor_layers(loop)
    assert len(layers) == per_layer * loop.layers
    assert _matmul_floor(loop, repeats=2) > 0


def test_a_step_without_known_matrices_is_an_error_not_a_floor_of_nothing(synthesizer):
    class Bare:
        _stack = __import__("torch").nn.Sequential()

    with pytest.raises(RuntimeError, match="no Linear layers"):
        floor_layers(Bare())
