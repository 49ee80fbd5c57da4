"""Calling a TorchScript function without its executor's graph optimization (the int8 step)."""

from __future__ import annotations

import torch


class Unoptimized:
    """A TorchScript function called with its executor's graph optimization off. That optimization
    runs on a function's first call, which a Play pressed at ready waits for. int8's time is in its
    quantized kernels, and a CPU build of PyTorch without LLVM fuses nothing, so without it the
    first call costs what the next ones do and a token takes at most a few percent longer
    (bench/first_call.py; figures: docs/design/constants.md#warm-up-and-the-unoptimized-int8-step).
    fp32 and bf16 keep it. The switch is per thread: it is set around each call, and other models
    are not touched."""

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
