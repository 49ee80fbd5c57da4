"""Which number format the decode step computes in, per device, and how to get there."""

from __future__ import annotations

import copy
import warnings

from app.engine.errors import DeviceError

CPU_CHOICES = ("fp32", "bf16", "int8")
CUDA_CHOICES = ("fp32", "fp16", "bf16")
CHOICES = ("auto", "fp32", "fp16", "bf16", "int8")
# int8 and bf16 are checked against fp32 only on random weights so far (see bench/decode.py);
# until someone listens to them on the official weights they are opt-in and say so.
EXPERIMENTAL = ("int8", "bf16")


def resolve(precision: str, device_type: str) -> str:
    import torch

    if precision not in CHOICES:
        raise DeviceError(f"Unknown precision {precision!r}; use one of: {', '.join(CHOICES)}.")
    if precision == "auto":
        if device_type == "cuda":
            return "bf16" if torch.cuda.is_bf16_supported() else "fp16"
        return "fp32"
    allowed = CUDA_CHOICES if device_type == "cuda" else CPU_CHOICES
    if precision not in allowed:
        where = "an NVIDIA GPU" if device_type == "cuda" else "the CPU"
        raise DeviceError(f"Precision {precision} is not available on {where}; "
                          f"use one of: {', '.join(allowed)}.")
    return precision


def compute_dtype(precision: str):
    import torch

    return {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)


def convert(stack, precision: str, in_place: bool = False):
    """The stack in `precision`. fp32 shares the model's weights. Otherwise the weights are
    converted: in place when the caller gives up the fp32 model (no second fp32 copy at the
    peak: that was 0.8 GB on the full model), else on a copy."""
    import torch

    if precision == "fp32":
        return stack
    if precision == "int8":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return torch.ao.quantization.quantize_dynamic(stack, {torch.nn.Linear}, dtype=torch.qint8,
                                                          inplace=in_place)
    return (stack if in_place else copy.deepcopy(stack)).to(compute_dtype(precision))
