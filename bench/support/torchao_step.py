"""The 20-layer decode step with torchao's quantized weights: issue 44's spike beside ONNX Runtime's.

The fp32 LlamaStack (app/decode/llama_step.py) with its Linears made by `torchao.quantization.
quantize_`, run eager or through `torch.compile` (torchao's advice for speed): int8 = dynamic
int8 activations per row (token) with int8 weights per output channel
(Int8DynamicActivationInt8WeightConfig), int8wo = int8 weights only (Int8WeightOnlyConfig),
int4 = int8 activations per row with int4 weights per group of 32
(Int8DynamicActivationIntxWeightConfig; on x86 torchao has no packed int4 CPU kernel, so the
weights are stored unpacked and dequantized per call). The KV cache is the loop's own.
"""

from __future__ import annotations

import torch
import torch.nn as nn


def _config(weights: str):
    from torchao.quantization import (
        Int8DynamicActivationInt8WeightConfig,
        Int8DynamicActivationIntxWeightConfig,
        Int8WeightOnlyConfig,
        PerGroup,
    )

    if weights == "int8":
        return Int8DynamicActivationInt8WeightConfig()
    if weights == "int8wo":
        return Int8WeightOnlyConfig()
    if weights == "int4":
        return Int8DynamicActivationIntxWeightConfig(
            weight_dtype=torch.int4, weight_granularity=PerGroup(32)
        )
    raise ValueError(weights)


def quantized_stack(stack: nn.Module, weights: str) -> nn.Module:
    """`stack` (changed in place) with every Linear quantized the torchao way `weights`."""
    from torchao.quantization import quantize_

    quantize_(stack, _config(weights))
    return stack


class TorchaoLoop:
    """A DecodeLoop's step pieces with the layers quantized by torchao (the fp32 loop `loop`
    keeps the embeddings, the heads and the rotary tables)."""

    def __init__(
        self,
        loop,
        stack,
        weights: str = "int8",
        compile: bool = False,
        smoothing: float | None = 0.5,
    ):
        """`stack`: the model's eager fp32 LlamaStack; quantized on a copy, first smoothed as
        int8 today is (decode/int8.py; `smoothing` = alpha, None: not). `compile`:
        torch.compile the quantized stack (dynamic shapes: the length grows every step)."""
        import copy

        from app.decode import int8

        stack = copy.deepcopy(stack)
        if smoothing is not None:
            int8.smooth(stack, *loop._calibration(), alpha=smoothing)
        self.loop = loop
        self.layers, self.heads, self.head_dim = loop.layers, loop.heads, loop.head_dim
        self.num_vq = loop.num_vq
        self.stack = quantized_stack(stack, weights)
        self._run = torch.compile(self.stack, dynamic=True) if compile else self.stack

    def allocate_cache(self, batch: int, length: int, make=torch.zeros):
        shape = (self.layers, batch, self.heads, length, self.head_dim)
        return make(shape, dtype=torch.float32), make(shape, dtype=torch.float32)

    def run_stack(self, x, positions_per_row, mask, k, v, write_at, length):
        cos, sin = self.loop.rotary(positions_per_row)
        with torch.inference_mode():
            return self._run(x.float(), cos, sin, mask, k, v, write_at, length)

    def logits(self, hidden, audio: bool):
        return self.loop.logits(hidden, audio)

    def embed_tokens(self, tokens, audio: bool):
        return self.loop.embed_tokens(tokens, audio)
