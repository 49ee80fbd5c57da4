"""ONNX Runtime's step (app/decode/ort_step.py) where a DecodeLoop stands, for
tests/support/precision_compare.py and bench/int8_speed.py's steps: `allocate_cache`,
`run_stack`, `logits`, `embed_tokens`."""

from __future__ import annotations

import time

import numpy as np
import torch

from app.decode.ort_graph import build_floor, quantize_blocks, session
from app.decode.ort_step import OrtStep

__all__ = ["BITS", "OrtLoop", "build_floor", "floor_ms", "quantize_blocks", "session"]

BITS = {"fp32": None, "int8": 8, "int4": 4}  # the bench's ways -> the graph's weight bits


def floor_ms(matrices: list[list[torch.Tensor]], bits: int | None, repeats: int = 20) -> float:
    """Milliseconds per step of the ORT step's projections alone on one token (`build_floor`'s
    graph of `matrices`, per layer q/k/v, o, gate/up, down)."""
    s = session(build_floor(matrices, bits))
    feed = {
        "a": np.random.randn(1, 1, matrices[0][0].shape[1]).astype(np.float32),
        "m": np.random.randn(1, 1, matrices[0][3].shape[1]).astype(np.float32),
    }
    for _ in range(3):
        s.run(None, feed)
    started = time.perf_counter()
    for _ in range(repeats):
        s.run(None, feed)
    return (time.perf_counter() - started) * 1000 / repeats


class OrtLoop:
    """A DecodeLoop's step pieces with the layers run by ONNX Runtime (the fp32 loop `loop`
    keeps the embeddings, the heads and the rotary tables)."""

    def __init__(
        self,
        loop,
        stack,
        weights: str = "int4",
        threads: int | None = None,
        smoothing: float | None = 0.5,
        spinning: bool = False,
    ):
        """`stack`: the model's eager fp32 LlamaStack (LlamaStack(parts.llama)), left as it is.
        Quantized weights are smoothed with alpha `smoothing` (None or 0: not)."""
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
            spinning=spinning,
        )

    def allocate_cache(self, batch: int, length: int, make=torch.zeros):
        shape = (self.layers, batch, self.heads, length, self.head_dim)
        return make(shape, dtype=torch.float32), make(shape, dtype=torch.float32)

    def run_stack(self, x, positions_per_row, mask, k, v, write_at, length):
        return self.step(x, positions_per_row, mask, k, v, write_at, length)

    def logits(self, hidden, audio: bool):
        return self.loop.logits(hidden, audio)

    def embed_tokens(self, tokens, audio: bool):
        return self.loop.embed_tokens(tokens, audio)
