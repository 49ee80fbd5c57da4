"""int8 steps that differ from the shipped one in one respect, for bench/int8_speed.py and
bench/precision_quality.py: rows at other activation levels than this CPU's, and the int8
weights with fp32 activations (what the weights alone cost against fp32)."""

from __future__ import annotations

import types


def at_levels(levels: int, make):
    """`make()` with its int8 rows built for `levels` activation levels, whatever this CPU's
    (the loops built here have no step cache, whose key would still hold the CPU's own)."""
    from app.decode import int8_rows

    probed = int8_rows.row_levels
    int8_rows.row_levels = lambda: levels
    try:
        return make()
    finally:
        int8_rows.row_levels = probed


def _fp32_scaled(self, x):
    """RowScaledLinear.scaled with the row's activations left in fp32 (its int8 weights)."""
    import torch.nn.functional as F

    low = x.amin(-1, keepdim=True)
    span = (x.amax(-1, keepdim=True) - low).clamp(min=self.tiny)
    return F.linear((x - low) / span, self._fp32_weight), span, low


def weights_only(loop):
    """`loop` (an eager int8 DecodeLoop) with every row-scaled Linear multiplying fp32
    activations by its int8 weights, dequantized: only the weights are rounded."""
    import warnings

    from app.decode.int8_rows import RowScaledLinear

    if loop.mode.value != "eager":
        raise ValueError("weights_only needs an eager loop (a compiled step cannot be changed)")
    linears = [m for m in loop._stack.modules() if isinstance(m, RowScaledLinear)]
    if not linears:
        raise ValueError("the loop has no row-scaled int8 Linear layers")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors' deprecation notice
        for m in linears:
            m._fp32_weight = m.params._weight_bias()[0].dequantize()
            m.scaled = types.MethodType(_fp32_scaled, m)
    return loop
