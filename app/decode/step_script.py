"""The loop's step, filter and draw compiled with TorchScript; on any gap, the same math eager."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from app.decode.sampling import draw, filter_logits
from app.decode.unoptimized import Unoptimized

log = logging.getLogger("chattts_studio.engine")


@dataclass
class StepCalls:
    """What the loop calls per token: the Llama stack, the filter and the draw."""

    stack: Any
    filter: Callable[..., torch.Tensor]
    draw: Callable[..., torch.Tensor]
    run: Unoptimized | None = None  # how the compiled int8 step is called (None: `stack` itself)
    error: str | None = None  # why TorchScript failed: then all three run eagerly


def _silence_jit_deprecation():
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"torch\.jit.*")
    warnings.filterwarnings("ignore", message=r".*TorchScript.*")
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"torch\.jit.*")


def script_step(stack, unoptimized: bool) -> StepCalls:
    """TorchScript of `stack`, filter_logits and draw. `unoptimized`: call them without
    TorchScript's first-call optimization (unoptimized.py; the int8 step)."""
    _silence_jit_deprecation()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            calls = StepCalls(
                torch.jit.script(stack), torch.jit.script(filter_logits), torch.jit.script(draw)
            )
        if unoptimized:
            calls.filter, calls.draw = Unoptimized(calls.filter), Unoptimized(calls.draw)
            calls.run = Unoptimized(calls.stack)
        return calls
    except Exception as exc:  # any TorchScript gap: same math, eager
        error = f"{type(exc).__name__}: {exc}"
        log.warning("TorchScript could not compile the decode step; running it eagerly (%s)", error)
        return StepCalls(stack, filter_logits, draw, error=error)
