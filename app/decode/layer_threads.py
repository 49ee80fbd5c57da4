"""Work done once per layer while a step is converted (smoothing, int8 conversion) or loaded
(packing its cached int8 matrices), on two threads: PyTorch releases Python's lock inside each
operation, and much of this work runs on one core (fbgemm's packing, first writes to the
weights' pages), so a first start converts the layers in less time than one thread takes
(bench/startup.py's cold start; tests/engine/test_layer_threads.py holds that the result is the
same)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

THREADS = 2


def each_layer(work: Callable[[T], R], layers: Iterable[T]) -> list[R]:
    """`work(layer)` for every layer, two at a time; the results in the layers' order. Grad
    mode is per thread, so `work` turns it off itself where it needs to; a warning filter set by
    the caller around this call holds in the threads (the filters are the process's)."""
    with ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="convert") as pool:
        return list(pool.map(work, layers))
