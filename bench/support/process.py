"""What a benchmark reads about its own process, the same way on Linux, macOS and Windows."""

from __future__ import annotations

import os
import sys


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MiB."""
    if sys.platform == "win32":
        import psutil

        return round(psutil.Process().memory_info().peak_wset / 2**20, 1)
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / 2**20 if sys.platform == "darwin" else peak / 1024, 1)  # bytes / KiB


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the system has none: Windows)."""
    return list(os.getloadavg()) if hasattr(os, "getloadavg") else None
