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

import torch

from app.engine.decode.memory import is_out_of_memory

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
        self.inputs = None          # GraphInputs once a graph was captured
        self.graphs: dict[int, object] = {}   # bucket -> GraphedStep
        self.pool = None

    @property
    def capacity(self) -> int:
        return self.k.shape[3]


class StaticCaches:
    """Least-recently-used cache entries; `clear()` frees them (out of memory, bad numbers)."""

    def __init__(self, allocate):
        self._allocate = allocate       # (batch, capacity) -> (k, v), zero-filled
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
                self._entries.clear()           # what we keep is what is in the way
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
