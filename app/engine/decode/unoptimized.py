"""Calling a TorchScript function without its executor's graph optimization (the int8 step)."""

from __future__ import annotations

import torch


class Unoptimized:
    """A TorchScript function called with its executor's graph optimization off. That
    optimization runs on a function's first call: a quarter to nearly half a second of the int8
    step's first call with the full model on a 2-core CPU, which a Play pressed at ready waits
    for. int8's time is in its quantized kernels, and a CPU build of PyTorch without LLVM fuses
    nothing, so without it the first call costs what the next ones do (bench/first_call.py) and
    a token takes at most a few percent longer (one process alternating both ways 6 times, twice:
    medians 15.8 and 15.2 ms against 15.6 and 14.8). fp32 and bf16 keep it. The switch is per
    thread: it is set around each call, and other models are not touched."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        before = torch._C._get_graph_executor_optimize()
        torch._C._set_graph_executor_optimize(False)
        try:
            return self.fn(*args)
        finally:
            torch._C._set_graph_executor_optimize(before)
