"""Work started on a thread of its own, for a caller that goes on meanwhile."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


def on_a_thread(name: str, work: Callable[..., Any], *args: Any) -> Future:
    """`work(*args)` on a new thread named `name`; its Future. The interpreter still waits for
    the thread at exit, so work that writes files finishes (decode/compiled_cache.py)."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    try:
        return pool.submit(work, *args)
    finally:
        pool.shutdown(wait=False)
