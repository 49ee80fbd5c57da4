"""Fixed-shape decode steps (what a CUDA graph replays): cache entries, length buckets, graphs.

A fixed-shape step attends to a fixed number of cache slots. Attending to the whole cache
(prompt + 2,048 slots) at every step reads more bytes of keys and values than of weights at
batch 4 in fp16, so a step attends to the smallest length bucket that holds every position
written so far, and the request switches to the next bucket's graph at its boundary.

Caches and their graphs are kept per (batch, capacity) across requests: a capture empties the
allocator's cache and costs tens of milliseconds, which a request should not pay twice.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import torch

from app.core import is_out_of_memory
from app.decode.modes import DecodeMode

# Capacities are rounded up to this, so that requests of nearby lengths share an entry.
SLOT_ROUND = 256
# Entries kept at once: refine and audio passes, at batch 1 (the first sentence) and the rest.
KEEP_ENTRIES = 4


def capacity_for(total: int, max_positions: int) -> int:
    return min(max_positions, -(-total // SLOT_ROUND) * SLOT_ROUND)


def buckets(capacity: int) -> list[int]:
    """Doubling lengths from SLOT_ROUND, ending with the capacity itself."""
    sizes, size = [], SLOT_ROUND
    while size < capacity:
        sizes.append(size)
        size *= 2
    return sizes + [capacity]


def bucket_for(length: int, sizes: list[int]) -> int:
    for size in sizes:
        if size >= length:
            return size
    raise ValueError(f"{length} slots exceed the cache ({sizes[-1]})")


class StaticEntry:
    """One (batch, capacity) cache and the graphs captured over it."""

    def __init__(self, k: torch.Tensor, v: torch.Tensor):
        self.k, self.v = k, v
        self.inputs = None  # GraphInputs once a graph was captured
        self.graphs: dict[int, object] = {}  # bucket -> GraphedStep
        self.pool = None

    @property
    def capacity(self) -> int:
        return self.k.shape[3]


class StaticCaches:
    """Least-recently-used cache entries; `clear()` frees them (out of memory, bad numbers)."""

    def __init__(self, allocate):
        self._allocate = allocate  # (batch, capacity) -> (k, v), zero-filled
        self._entries: OrderedDict[tuple[int, int], StaticEntry] = OrderedDict()

    def items(self) -> list[tuple[tuple[int, int], StaticEntry]]:
        """(batch, capacity) and entry of what is kept, oldest first, without touching the order."""
        return list(self._entries.items())

    def get(self, batch: int, capacity: int) -> StaticEntry:
        key = (batch, capacity)
        entry = self._entries.get(key)
        if entry is None:
            while len(self._entries) >= KEEP_ENTRIES:
                self._entries.popitem(last=False)
            try:
                entry = StaticEntry(*self._allocate(batch, capacity))
            except Exception as exc:
                if not is_out_of_memory(exc) or not self._entries:
                    raise
                self._entries.clear()  # what we keep is what is in the way
                entry = StaticEntry(*self._allocate(batch, capacity))
            self._entries[key] = entry
        self._entries.move_to_end(key)
        return entry

    def nbytes(self) -> int:
        """Memory the kept caches hold: free for a request, which may take their place."""
        return sum(e.k.nbytes + e.v.nbytes for e in self._entries.values())

    def keys(self) -> list[tuple[int, int]]:
        return list(self._entries)

    def clear(self) -> None:
        self._entries.clear()


class FixedShapeSteps:
    """The decode loop's fixed-shape steps and their CUDA graphs (a mixin of DecodeLoop, whose
    state it uses: `static_caches`, `cuda_graphs`, `_stack`, `run_stack`, `rotary`)."""

    if TYPE_CHECKING:  # provided by DecodeLoop
        static_caches: StaticCaches
        static_steps: bool
        cuda_graphs: bool
        mode: DecodeMode
        hidden_size: int
        head_dim: int
        dtype: torch.dtype
        device: torch.device
        _max_positions: int
        _stack: Any  # LlamaStack, or its TorchScript

        def rotary(self, positions_per_row: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]: ...

        def run_stack(
            self, x, positions_per_row, mask, k, v, write_at: torch.Tensor, length: int
        ) -> torch.Tensor: ...

    def static_entry(self, batch: int, total: int):
        capacity = capacity_for(total, self._max_positions)
        return self.static_caches.get(batch, capacity)

    def kept_cache_bytes(self) -> int:
        return self.static_caches.nbytes()

    def release_static(self) -> None:
        """Free the kept caches and graphs (out of memory, or numbers that overflowed)."""
        self.static_caches.clear()

    @torch.inference_mode()
    def prepare_graphs(self, batch: int, total: int) -> None:
        """Capture every bucket's graph of a (batch, length) now, so that requests of that shape
        pay no capture."""
        if not (self.static_steps and self.cuda_graphs):
            return
        entry = self.static_entry(batch, total)
        for size in buckets(entry.capacity):
            self._graph(entry, size)

    def _graph(self, entry, size: int):
        if not self.cuda_graphs:
            return None
        if size not in entry.graphs:
            from app.decode.cuda_graph import GraphInputs, capture

            if entry.inputs is None:
                entry.inputs = GraphInputs(
                    entry.k.shape[1],
                    entry.capacity,
                    self.hidden_size,
                    self.head_dim,
                    self.dtype,
                    self.device,
                )
                entry.pool = torch.cuda.graph_pool_handle()
            graph = capture(self._stack, entry.inputs, size, entry.k, entry.v, entry.pool)
            if graph is None:  # not on this machine: stop trying, step without graphs
                self.cuda_graphs, self.mode = False, DecodeMode.EAGER
                return None
            entry.graphs[size] = graph
        return entry.graphs[size]

    def _static_step(self, entry, x, rows_at, valid, slots, at: int) -> torch.Tensor:
        size = bucket_for(at + 1, buckets(entry.capacity))
        mask = (valid[:, :size] & (slots[:size] <= at))[:, None, None, :]
        graph = self._graph(entry, size)
        if graph is None:
            return self.run_stack(x, rows_at, mask, entry.k, entry.v, slots[at : at + 1], size)
        cos, sin = self.rotary(rows_at)
        entry.inputs.load(x.to(self.dtype), cos, sin, mask, slots[at : at + 1])
        return graph.replay()
