"""The one-token step captured as CUDA graphs: one launch per token instead of hundreds.

A graph replays fixed shapes at fixed addresses, so the step runs in its "static" form (see
llama_step.py and static_steps.py): it attends to the first `bucket` cache slots with future
positions masked, and reads its inputs from buffers we copy into. One graph per length bucket,
all sharing the same input buffers, cache and memory pool; they live as long as their cache
entry, across requests, so a request pays no capture.
"""

from __future__ import annotations

import logging

import torch

from app.core import is_out_of_memory

log = logging.getLogger("chattts_studio.engine")


class GraphInputs:
    """Static input buffers of every graph of one cache entry."""

    def __init__(self, batch: int, capacity: int, width: int, head_dim: int, dtype, device):
        self.x = torch.zeros(batch, 1, width, dtype=dtype, device=device)
        self.cos = torch.zeros(batch, 1, 1, head_dim, dtype=dtype, device=device)
        self.sin = torch.zeros_like(self.cos)
        self.mask = torch.zeros(batch, 1, 1, capacity, dtype=torch.bool, device=device)
        self.at = torch.zeros(1, dtype=torch.long, device=device)

    def load(self, x, cos, sin, mask, at: torch.Tensor) -> None:
        self.x.copy_(x)
        self.cos.copy_(cos)
        self.sin.copy_(sin)
        self.mask[..., : mask.shape[-1]].copy_(mask)
        self.at.copy_(at)


class GraphedStep:
    def __init__(self, stack, inputs: GraphInputs, bucket: int, k_cache, v_cache, pool):
        capacity = inputs.mask.shape[-1]
        # Warm-up runs really execute. They write the last cache slot, which a real step reads
        # only after writing it itself, and they see every slot of the bucket (all finite), so
        # what they leave behind is finite and never read.
        inputs.mask.fill_(True)
        inputs.at.fill_(capacity - 1)
        args = (
            inputs.x,
            inputs.cos,
            inputs.sin,
            inputs.mask[..., :bucket],
            k_cache,
            v_cache,
            inputs.at,
            bucket,
        )
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                stack(*args)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        # Thread-local: a CUDA call from another thread (the doctor's kernel probe) must not
        # invalidate the capture.
        with torch.cuda.graph(self.graph, pool=pool, capture_error_mode="thread_local"):
            self.out = stack(*args)
        self.bucket = bucket

    def replay(self) -> torch.Tensor:
        self.graph.replay()
        return self.out


def capture(stack, inputs: GraphInputs, bucket: int, k_cache, v_cache, pool):
    """A GraphedStep, or None (reason logged) where capture is not possible. Out-of-memory is
    raised, so that the caller's batch halving sees it."""
    stream = torch.cuda.current_stream()
    try:
        return GraphedStep(stack, inputs, bucket, k_cache, v_cache, pool)
    except Exception as exc:
        # A failed capture can leave this thread on the capture's stream.
        torch.cuda.set_stream(stream)
        if is_out_of_memory(exc):
            raise
        log.warning(
            "CUDA graph capture failed, stepping without graphs: %s: %s", type(exc).__name__, exc
        )
        return None
