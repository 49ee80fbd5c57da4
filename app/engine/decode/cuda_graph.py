"""The one-token step captured as a CUDA graph: one launch per token instead of hundreds.

A graph replays fixed shapes at fixed addresses, so the step runs in its "static" form (see
llama_step.py): it attends to the whole cache with future positions masked, and reads its
inputs from buffers we copy into. Captured once per request (batch and cache length fixed).
The same static form runs on the CPU in tests, which is how its arithmetic is checked here.
"""

from __future__ import annotations

import logging

import torch

log = logging.getLogger("chattts_studio.engine")


class GraphedStep:
    def __init__(self, stack, batch: int, total: int, width: int, head_dim: int, dtype,
                 k_cache: torch.Tensor, v_cache: torch.Tensor):
        device = k_cache.device
        self.total = total
        self.x = torch.zeros(batch, 1, width, dtype=dtype, device=device)
        self.cos = torch.zeros(batch, 1, 1, head_dim, dtype=dtype, device=device)
        self.sin = torch.zeros_like(self.cos)
        self.mask = torch.zeros(batch, 1, 1, total, dtype=torch.bool, device=device)
        self.mask[..., -1] = True
        # Warm-up runs really execute: point them at the last cache slot, which the real
        # steps write only at the very end (and then overwrite).
        self.at = torch.full((1,), total - 1, dtype=torch.long, device=device)
        args = (self.x, self.cos, self.sin, self.mask, k_cache, v_cache, self.at, total)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(2):
                stack(*args)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = stack(*args)

    def __call__(self, x, cos, sin, mask, at: int) -> torch.Tensor:
        self.x.copy_(x)
        self.cos.copy_(cos)
        self.sin.copy_(sin)
        self.mask.copy_(mask)
        self.at.fill_(at)
        self.graph.replay()
        return self.out


def try_capture(*args, **kwargs):
    """A GraphedStep, or None (with the reason logged) where capture is not possible."""
    try:
        return GraphedStep(*args, **kwargs)
    except Exception as exc:
        log.warning("CUDA graph capture failed, stepping without it: %s: %s", type(exc).__name__, exc)
        return None
