"""The int8 matrices of a compiled step, kept in a file beside it (compiled_cache.py says why):
taken out of the TorchScript module while it is saved, packed back into it after it is loaded."""

from __future__ import annotations

import contextlib
from typing import Any

from app.decode.layer_threads import each_layer

PACKED = "LinearPackedParams"  # the module TorchScript repacks on load


def _packed_modules(module) -> list[tuple[str, Any]]:  # quantized Linears (TorchScript)
    return [
        (name, sub)
        for name, sub in module.named_modules()
        if getattr(sub, "original_name", "") == PACKED
    ]


@contextlib.contextmanager
def stand_ins(module):
    """While saving the archive: in `module`, a 1x1 stand-in for every int8 matrix, so the
    archive holds none of them; put back afterwards. Yields (name, packed matrix) for
    `unpacked`, which may run later, on another thread, while the module runs (both only read)."""
    import torch

    taken: list[tuple[str, Any, Any]] = []
    stand_in = packed_int8(
        torch.zeros(1, 1, dtype=torch.int8),
        torch.ones(1, dtype=torch.float64),
        torch.zeros(1, dtype=torch.int64),
    )
    try:
        for name, sub in _packed_modules(module):
            taken.append((name, sub, sub._packed_params))
            sub._packed_params = stand_in
        yield [(name, packed) for name, _, packed in taken]
    finally:
        for _, sub, packed in taken:
            sub._packed_params = packed


def unpacked(taken: list[tuple[str, Any]]) -> dict:
    """Every int8 matrix of `taken` (from `stand_ins`) as plain tensors, by submodule name."""
    import torch

    weights = {}
    for name, packed in taken:
        weight, bias = torch.ops.quantized.linear_unpack(packed)
        if bias is not None or weight.qscheme() != torch.per_channel_affine:
            raise ValueError(f"{name}: only per-channel int8 weights without bias are kept apart")
        weights[name] = {
            "int8": weight.int_repr(),
            "scales": weight.q_per_channel_scales(),
            "zero_points": weight.q_per_channel_zero_points(),
        }
    return weights


def packed_int8(int8, scales, zero_points):
    """An int8 matrix (N, K) with one scale and zero point per output channel, packed for
    fbgemm as the step's int8 Linears hold it."""
    import torch

    quantized = torch._make_per_channel_quantized_tensor(int8, scales, zero_points, 0)
    return torch.ops.quantized.linear_prepack(quantized, None)


def put_weights(module, weights) -> None:
    """Pack the int8 matrices of `weights` (as `unpacked` gave them) into `module`,
    two at a time (packing releases Python's lock). Names, types and shapes must fit."""
    import torch

    if not isinstance(weights, dict):
        raise ValueError("the weights file holds no table")
    owners = dict(module.named_modules())
    subs = {
        name: sub for name, sub in owners.items() if getattr(sub, "original_name", "") == PACKED
    }
    if set(weights) != set(subs):
        raise ValueError("the weights file does not name the module's int8 matrices")
    for name, entry in weights.items():
        if (
            not isinstance(entry, dict)
            or set(entry) != {"int8", "scales", "zero_points"}
            or not all(isinstance(t, torch.Tensor) for t in entry.values())
        ):
            raise ValueError(f"{name}: not an int8 matrix")
        int8, scales, zero_points = entry["int8"], entry["scales"], entry["zero_points"]
        if (
            int8.dtype != torch.int8
            or int8.dim() != 2
            or scales.dtype != torch.float64
            or zero_points.dtype != torch.int64
            or scales.shape != (int8.shape[0],)
            or zero_points.shape != (int8.shape[0],)
        ):
            raise ValueError(f"{name}: not an int8 matrix")
        layer = owners.get(name.rpartition(".")[0])  # a quantized Linear or a RowScaledLinear
        shape = (getattr(layer, "out_features", None), getattr(layer, "in_features", None))
        if tuple(int8.shape) != shape:
            raise ValueError(f"{name}: a {tuple(int8.shape)} matrix where the layer takes {shape}")

    def pack(name):
        entry = weights[name]
        return packed_int8(entry["int8"], entry["scales"], entry["zero_points"])

    packed = dict(zip(weights, each_layer(pack, list(weights))))
    for name, sub in subs.items():
        sub._packed_params = packed[name]
