"""How a narration render ended, as the render, the worker's signal and the window say it."""

from __future__ import annotations

from enum import StrEnum


class RenderState(StrEnum):
    FINISHED = "finished"  # every pending sentence was tried (some may have failed)
    STOPPED = "stopped"  # paused or stopped by the user; the rest renders next time
    CANCELLED = "cancelled"  # cancelled: sentences in flight were dropped
    FAILED = "failed"  # the render itself raised (the window's controller says so, not the render)
