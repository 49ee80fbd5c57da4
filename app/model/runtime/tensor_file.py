"""A safetensors file's tensors read into memory of their own, not mapped.

safetensors maps the file and hands out views of it; a tensor that is later changed in place
(int8 smoothing scales the GPT's weights) then pays for a copy of every page at its first write,
and the mapped pages stay resident beside any copy made instead. Read here, each tensor is one
`readinto` of its bytes: the same numbers, at the memory of one copy
(tests/engine/test_tensor_file.py; docs/design/startup.md).

The file is hostile until parsed: the header's size is capped, every entry must name a known
dtype, a shape and offsets inside the data that fit that shape exactly, and the entries must
tile the data without gap or overlap, or the file is refused with a ValueError that names the
entry.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

HEADER_CAP = 16 * 1024 * 1024  # safetensors' own limit is 100 MB; ChatTTS's GPT has 60 KB
DIMENSION_CAP = 1 << 40  # an empty tensor's other dimensions are not bounded by the file's size
DTYPES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


def _entry(name: str, entry, data_size: int) -> tuple[torch.dtype, list[int], int, int]:
    if not isinstance(entry, dict):
        raise ValueError(f"{name}: not a tensor entry")
    name_of_dtype = entry.get("dtype")
    dtype = DTYPES.get(name_of_dtype) if isinstance(name_of_dtype, str) else None
    shape, offsets = entry.get("shape"), entry.get("data_offsets")
    if (
        dtype is None
        or not isinstance(shape, list)
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= DIMENSION_CAP
            for n in shape
        )
        or not isinstance(offsets, list)
        or len(offsets) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in offsets)
    ):
        raise ValueError(f"{name}: an entry without a known dtype, a shape and two offsets")
    begin, end = offsets
    itemsize = torch.empty(0, dtype=dtype).element_size()
    if not 0 <= begin <= end <= data_size or end - begin != math.prod(shape) * itemsize:
        raise ValueError(f"{name}: its offsets do not fit its shape inside the file")
    return dtype, shape, begin, end


def read_tensors(path: Path | str, wanted: Callable[[str], bool]) -> dict[str, torch.Tensor]:
    """The tensors of the safetensors file at `path` whose names `wanted` accepts."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        prefix = f.read(8)
        length = int.from_bytes(prefix, "little") if len(prefix) == 8 else -1
        if not 0 < length <= min(HEADER_CAP, size - 8):
            raise ValueError("not a safetensors file: its header size is missing or too large")
        try:
            header = json.loads(f.read(length))
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ValueError("not a safetensors file: its header is not JSON") from exc
        if not isinstance(header, dict):
            raise ValueError("not a safetensors file: its header is not a table")
        base, data_size = 8 + length, size - 8 - length
        entries = {
            name: _entry(name, entry, data_size)
            for name, entry in header.items()
            if name != "__metadata__"
        }
        # As safetensors requires: the tensors tile the data, no gap, no overlap (else a
        # small file could ask for its bytes many times over).
        covered = 0
        for name, (_, _, begin, end) in sorted(entries.items(), key=lambda kv: kv[1][2:]):
            if begin != covered:
                raise ValueError(f"{name}: its bytes overlap another tensor's or leave a gap")
            covered = end
        if covered != data_size:
            raise ValueError("not a safetensors file: its data does not end with its last tensor")
        tensors = {}
        for name, (dtype, shape, begin, end) in entries.items():
            if not wanted(name):
                continue
            tensor = torch.empty(shape, dtype=dtype)
            f.seek(base + begin)
            into: Any = tensor.reshape(-1).view(torch.uint8).numpy()  # a writable buffer
            if f.readinto(into) != end - begin:
                raise ValueError(f"{name}: the file ends inside it")
            tensors[name] = tensor
    return tensors
