"""int8 Linear layers whose activations are scaled row by row, so a sentence's numbers do not
depend on the sentences that share its batch.

PyTorch's dynamic int8 Linear (fbgemm) picks one activation scale from the minimum and maximum of
the whole input. In a batch, a loud row sets the scale of a quiet one, and the quiet row's tokens
change with its neighbours (alone vs in a batch of three gave other tokens). Here each row is mapped
from its own [minimum, maximum] onto [0, 1] first, and fbgemm quantizes with one fixed scale for
that range (`linear_with_input_q_dq_qweight_dq_output_fp32`; 255 levels where the CPU sums them
exactly, else 127: decode/int8_levels.py); the output row is scaled back and the row's minimum times
each output's weight sum added (W x = span * W x' + min * W 1). Integer products are summed exactly
and the rest is element-wise, so a row's result is the same bits at any batch size. It is also finer
than one scale per batch: a quiet row keeps all its levels, and a lopsided row spends none on values
it does not have, which agrees with fp32 more often than a symmetric [-peak, peak] per row
(bench/precision_quality.py; figures: docs/design/constants.md#int8-per-row-activation-scales).

q/k/v and gate/up share their input, so each trio or pair is one fused matrix: one row scale
and one fbgemm call where there were three or two.
"""

from __future__ import annotations

import warnings
from typing import cast

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.ao.nn.quantized.modules.linear import LinearPackedParams

from app.decode.int8_levels import row_levels
from app.decode.layer_threads import each_layer
from app.decode.llama_step import LlamaLayer, layers_of

# [0, 1] onto 0..row_levels(): 255 where the CPU's kernel sums u8 x s8 exactly, else 7 bits
# (decode/int8_levels.py).
ROW_ZERO_POINT = 0
TINY = 1e-30  # a constant row gives min * W 1 instead of dividing by zero


def _per_channel_int8(weight: torch.Tensor) -> torch.Tensor:
    """`weight` as a qint8 tensor with one symmetric scale per output channel: what PyTorch's
    `per_channel_dynamic_qconfig` observer gives (largest magnitude / 127.5, zero point 0),
    computed directly (its observer and `quantize_per_channel` are far slower)."""
    # max(max, -min) is max |w| without a temporary the matrix's size: the same scale, faster
    # (tests/engine/test_layer_threads.py holds the bits against the observer's formula).
    peak = torch.maximum(weight.amax(1), weight.amin(1).neg_())
    scale = (peak / 127.5).clamp(min=torch.finfo(torch.float32).eps).double()
    q = torch.div(weight, scale.float()[:, None]).round_().clamp_(-128, 127).to(torch.int8)
    zero = torch.zeros(weight.shape[0], dtype=torch.int64)
    return torch._make_per_channel_quantized_tensor(q, scale, zero, 0)


class RowScaledLinear(nn.Module):
    """Several Linear layers over one input as one int8 matrix (their outputs side by side).
    Weights: int8 per output channel, as `quantize_dynamic` makes them. `scaled(x)` gives the
    output of the rows mapped onto [0, 1], each row's span and its minimum, so a caller can fold
    putting them back into its own addition (`add_to`)."""

    def __init__(self, linears: list[nn.Linear]):
        super().__init__()
        if any(lin.bias is not None for lin in linears):
            # ChatTTS's Llama has none; a bias would have to be added after the row scale.
            raise ValueError("row-scaled int8 takes Linear layers without bias")
        with torch.no_grad():
            weight = torch.cat([lin.weight.detach().float() for lin in linears])
            # Quantized tensors warn that they are deprecated: `row_scaled` silences that around
            # its threads (a filter set here, in a thread, would race with the other's).
            quantized = _per_channel_int8(weight)
            self.params = LinearPackedParams(dtype=torch.qint8)
            self.params.set_weight_bias(quantized, None)
            # W 1 of the int8 weights fbgemm multiplies with, for the rows' minimum.
            self.weight_sums = quantized.dequantize().sum(1)
        self.sizes: list[int] = [lin.out_features for lin in linears]
        # As torch's quantized Linear names them: what a cached step's weights must fit.
        self.out_features, self.in_features = weight.shape
        # Attributes, as TorchScript reads no module-level numbers.
        self.scale, self.zero_point, self.tiny = 1.0 / row_levels(), ROW_ZERO_POINT, TINY

    def scaled(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        low = x.amin(-1, keepdim=True)
        span = (x.amax(-1, keepdim=True) - low).clamp(min=self.tiny)
        y = torch.ops.quantized.linear_with_input_q_dq_qweight_dq_output_fp32(
            (x - low) / span, self.scale, self.zero_point, self.params._packed_params
        )
        return y, span, low

    def add_to(self, base: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """base + this layer's output of x, in two fused multiply-adds."""
        y, span, low = self.scaled(x)
        return torch.addcmul(torch.addcmul(base, low, self.weight_sums), y, span)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, span, low = self.scaled(x)
        return torch.addcmul(low * self.weight_sums, y, span)


class RowScaledLayer(LlamaLayer):
    """A LlamaLayer whose projections are RowScaledLinear (the same forward)."""

    def __init__(self, layer: LlamaLayer):
        nn.Module.__init__(self)
        self.ln_in, self.ln_post = layer.ln_in, layer.ln_post
        self.eps, self.heads = layer.eps, layer.heads
        self.qkv = RowScaledLinear([layer.q_proj, layer.k_proj, layer.v_proj])
        self.o = RowScaledLinear([layer.o_proj])
        self.gate_up = RowScaledLinear([layer.gate_proj, layer.up_proj])
        self.down = RowScaledLinear([layer.down_proj])

    def attention_inputs(self, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        q, k, v = self.qkv(h).split(self.qkv.sizes, -1)
        return q, k, v

    def add_attention_output(self, x: torch.Tensor, a: torch.Tensor) -> torch.Tensor:
        return self.o.add_to(x, a)

    def add_feed_forward(self, x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        gate, up = self.gate_up(h).split(self.gate_up.sizes, -1)
        return self.down.add_to(x, F.silu(gate) * up)


def row_scaled(stack: nn.Module) -> nn.Module:
    """The stack with every layer's Linear weights int8 and activations scaled per row (in
    place: the stack's fp32 projections are dropped), two layers at a time (layer_threads.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors' deprecation notice
        row_levels()  # probed here, so no layer thread sets warnings filters (int8_levels.py)
        converted = each_layer(RowScaledLayer, layers_of(stack))
    for i, layer in enumerate(converted):
        cast(nn.ModuleList, stack.layers)[i] = layer
    return stack
