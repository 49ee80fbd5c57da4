"""How many levels a row's activations get in the int8 step (decode/int8_rows.py): 255 where
the CPU's int8 kernel sums u8 x s8 products exactly, else 127.

Without VNNI, fbgemm adds each pair of u8 x s8 products into 16 bits with saturation
(vpmaddubsw), so activations keep 7 bits (its `reduce_range`); with VNNI (vpdpbusd) products
are summed in 32 bits and the 8th bit is free. One call of the kernel the step uses, on inputs
whose pair sums overflow 16 bits, tells which this CPU does; it is compared with the exact sum,
not read from the CPU's flags, so a kernel that chose another path is still caught
(tests/engine/test_int8_levels.py).
"""

from __future__ import annotations

import functools
import logging
import threading
import warnings
from collections.abc import Callable

import torch

log = logging.getLogger("chattts_studio.int8")

FULL = 255  # u8: where products are summed exactly
SAFE = 127  # 7 bits: a pair of products fits 16 bits

# (rows, inputs) of the probe's calls: one row and a batch, a short and a model-sized input.
PROBE_SHAPES = ((1, 64), (5, 768))
PROBE_OUTPUTS = 16


def x86_engine() -> bool:
    """Whether this PyTorch has the x86 int8 engine (fbgemm) the step uses; not on an ARM CPU."""
    return bool({"x86", "fbgemm"} & set(torch.backends.quantized.supported_engines))


def kernel(x: torch.Tensor, scale: float, zero_point: int, packed) -> torch.Tensor:
    """The step's int8 product: `x` quantized with `scale` and `zero_point` (u8) times the
    packed int8 weights, in fp32."""
    return torch.ops.quantized.linear_with_input_q_dq_qweight_dq_output_fp32(
        x, scale, zero_point, packed
    )


def _packed(weight: torch.Tensor):
    """int8 `weight` (N, K) with scale 1 per output channel, packed as the step packs its own."""
    from app.decode.int8_weights_file import packed_int8

    n = weight.shape[0]
    # PyTorch's deprecation notice for quantized tensors comes once per process, often here:
    # it is logged (the program's log), neither shown nor raised under -W error
    # (tests/cli/test_third_party_output.py, tests/engine/test_int8_levels.py).
    with warnings.catch_warnings(record=True) as notices:
        warnings.simplefilter("always")
        packed = packed_int8(
            weight, torch.ones(n, dtype=torch.float64), torch.zeros(n, dtype=torch.int64)
        )
    for notice in notices:
        log.info("%s: %s", notice.category.__name__, notice.message)
    return packed


def sums_exactly(levels: int, product: Callable = kernel) -> bool:
    """Whether `product` gives the exact sums for activations at `levels`: every input at the
    top level against weights of +127 and -128 (the pair sums farthest from zero)."""
    for rows, inputs in PROBE_SHAPES:
        weight = torch.full((PROBE_OUTPUTS, inputs), 127, dtype=torch.int8)
        weight[1::2] = -128
        x = torch.ones(rows, inputs)
        with torch.inference_mode():
            y = product(x, 1.0 / levels, 0, _packed(weight))
        exact = weight.double().sum(1).expand(rows, -1)
        if not torch.allclose(y.double(), exact, rtol=1e-5, atol=0):
            return False
    return True


_PROBING = threading.Lock()  # the first callers wait for one probe


def row_levels() -> int:
    """The levels of this CPU: FULL where its kernel sums them exactly, else SAFE (also where
    PyTorch has no such kernel: an ARM CPU, where int8 does not run by default)."""
    with _PROBING:
        return _probed()


@functools.cache
def _probed() -> int:
    if not x86_engine():
        return SAFE
    try:
        return FULL if sums_exactly(FULL) else SAFE
    except RuntimeError:  # an engine whose packed weights have no such product
        return SAFE
