"""ONNX Runtime's step (app/decode/ort_step.py) where a DecodeLoop stands, for
tests/support/precision_compare.py and bench/int8_speed.py's steps: `allocate_cache`,
`run_stack`, `logits`, `embed_tokens`."""

from __future__ import annotations

import torch

from app.decode.ort_graph import build_floor, quantize_blocks, session
from app.decode.ort_step import OrtStep

__all__ = ["BITS", "OrtLoop", "build_floor", "quantize_blocks", "session"]

BITS = {"fp32": None, "int8": 8, "int4": 4}  # the bench's ways -> the graph's weight bits


class OrtLoop:
    """A DecodeLoop's step pieces with the layers run by ONNX Runtime (the fp32 loop `loop`
    keeps the embeddings, the heads and the rotary tables)."""

    def __init__(
        self,
        loop,
        stack,
        weights: str = "int4",
        block: int = 32,
        threads: int | None = None,
        smoothing: float | None = 0.5,
    ):
        """`stack`: the model's eager fp32 LlamaStack (LlamaStack(parts.llama)), left as it is.
        Quantized weights are smoothed with alpha `smoothing` (None or 0: not)."""
        assert block == 32, "the block size is ort_step.BLOCK"
        self.loop = loop
        self.layers, self.heads, self.head_dim = loop.layers, loop.heads, loop.head_dim
        self.num_vq = loop.num_vq
        self.step = OrtStep(
            stack,
            loop._cos,
            loop._sin,
            BITS[weights],
            loop._calibration,
            threads=threads,
            smoothing=smoothing or 0.0,
        )
        self.model_bytes = self.step.model_bytes

    def allocate_cache(self, batch: int, length: int, make=torch.zeros):
        shape = (self.layers, batch, self.heads, length, self.head_dim)
        return make(shape, dtype=torch.float32), make(shape, dtype=torch.float32)

    def run_stack(self, x, positions_per_row, mask, k, v, write_at, length):
        return self.step(x, positions_per_row, mask, k, v, write_at, length)

    def logits(self, hidden, audio: bool):
        return self.loop.logits(hidden, audio)

    def embed_tokens(self, tokens, audio: bool):
        return self.loop.embed_tokens(tokens, audio)
