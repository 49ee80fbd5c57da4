"""How many sentences a CPU decodes at once, from the step's measured cost per row on this
machine.

A CPU step reads every weight once whatever the batch, so a row costs less in a bigger batch,
until the work that grows with the rows (attention over each row's cache, the heads, the
activations) outweighs that. The cap is the largest batch of `BATCHES` whose step time per row
is still at least `MARGIN` below the previous one's (docs/design/constants.md#row-cap).

It is measured once per compiled step (decode/compiled_cache.py: a reduced precision on a CPU)
as a part of the warm-up, a few timed steps per batch, and kept beside that step as
`step-KEY.rows.json`; a later start reads it back. Anything it cannot use (damaged, another rule,
another CPU or thread count) is measured again. fp32 and a GPU keep memory.py's constant.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from app.atomic import write_json_atomic
from app.decode.memory import MAX_BATCH, max_batch

log = logging.getLogger("chattts_studio.engine")

BATCHES = (1, 2, 4, 6, 8, 12, 16)
# A bigger batch makes each of its sentences wait longer per step; it is worth that only where
# the machine does noticeably more rows per second.
MARGIN = 0.10
# Each timed step attends over a cache this long: a sentence a little way into its audio.
CACHE_TOKENS = 128
WARM_STEPS = 2  # first calls of a new shape cost more (TorchScript, the allocator)
TIMED_STEPS = 3  # the least of these stands for the batch: other work only adds time
# The most step time the measurement spends (a slow or busy machine stops at the batches it timed
# by then, so a start never waits long for it; short of the constant's batch it keeps nothing).
BUDGET_S = 3.0
# The first batch is timed again at the end; a time that moved by more than this says other work
# came or went meanwhile, so the figures are not kept (the next start measures again).
STEADY = 0.2
FORMAT = 1
FILE_CAP = 16 * 1024


def cap_from_times(ms_per_step: Mapping[int, float], margin: float = MARGIN) -> int:
    """The largest batch, going up from the smallest measured, whose step time per row is at
    least `margin` below the batch before it; the smallest batch when none is."""
    batches = sorted(ms_per_step)
    cap = batches[0]
    for before, batch in zip(batches, batches[1:]):
        if ms_per_step[batch] / batch > (1 - margin) * ms_per_step[before] / before:
            break
        cap = batch
    return cap


def step_ms(loop, batch: int, steps: int = TIMED_STEPS, cache_tokens: int = CACHE_TOKENS) -> float:
    """Milliseconds of one audio step of `batch` rows (embedding, the compiled stack over a
    `cache_tokens` cache, the heads and a pick): the least of `steps` after `WARM_STEPS`."""
    import torch

    total = cache_tokens + WARM_STEPS + steps
    k, v = loop.allocate_cache(batch, total, torch.zeros)
    valid = torch.ones(batch, total, dtype=torch.bool, device=loop.device)
    slots = torch.arange(total, device=loop.device)
    codes = torch.zeros(batch, loop.num_vq, dtype=torch.long, device=loop.device)
    best = math.inf
    with torch.inference_mode():
        for i in range(WARM_STEPS + steps):
            at = cache_tokens + i
            started = time.perf_counter()
            x = loop.embed_tokens(codes, audio=True)
            positions = torch.full((batch, 1), at, device=loop.device)
            mask = valid[:, None, None, : at + 1]
            hidden = loop.run_stack(x, positions, mask, k, v, slots[at : at + 1], at + 1)[:, -1]
            logits = loop.logits(hidden, audio=True)
            codes = logits.view(batch, loop.num_vq, -1).argmax(-1)
            if i >= WARM_STEPS:
                best = min(best, time.perf_counter() - started)
    return best * 1000


def machine() -> dict:
    """What a measurement holds for: the CPU and the threads PyTorch steps with."""
    import torch

    return {"cpu": cpu_name(), "cores": os.cpu_count(), "threads": torch.get_num_threads()}


def cpu_name() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what the platform says."""
    import platform

    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


class RowCap:
    """The cap of one compiled step on this machine, in the file at `path`."""

    def __init__(self, path: Path, saved: Callable[[], None] | None = None):
        """`saved()`: returns once the step's cache entry is written (a first start writes it
        in the background, which would slow the steps being timed)."""
        self.path = Path(path)
        self.saved = saved
        self.ms_per_step: dict[int, float] = {}
        self.measured_now = False  # whether this start measured it (else: read back, or not yet)

    @classmethod
    def of(cls, cache, loop, recipe) -> RowCap | None:
        """The cap's file for `loop`'s compiled step in `cache`; None where the step is not kept
        there (fp32, eager, a GPU: memory.py's constant stands)."""
        from app.decode.compiled_cache import step_key

        key = step_key(cache, loop.mode, loop.precision, loop.device, recipe)
        return cls(cache.rows_path(key), lambda: cache.wait_saved(key)) if key else None

    def _expected(self) -> dict:
        return {
            "format": FORMAT,
            "batches": list(BATCHES),
            "margin": MARGIN,
            "cache_tokens": CACHE_TOKENS,
            "machine": machine(),
        }

    def read(self) -> int | None:
        """The kept cap, or None: not measured yet, or measured under other conditions (then
        measured again), or a file that cannot be read (said in the log, then replaced)."""
        try:
            if self.path.stat().st_size > FILE_CAP:
                raise ValueError("larger than a measurement can be")
            data = json.loads(self.path.read_text(encoding="utf-8"))
            times = {int(b): float(ms) for b, ms in data["ms_per_step"].items()}
            if not times or any(not math.isfinite(ms) or ms <= 0 for ms in times.values()):
                raise ValueError("no usable step times")
            kept = {name: data.get(name) for name in self._expected()}
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            log.warning(
                "the measured batch size in %s could not be read (%s); measuring it again",
                self.path,
                exc,
            )
            return None
        if kept != self._expected():
            log.info(
                "the measured batch size in %s is for other conditions; measuring it again",
                self.path,
            )
            return None
        self.ms_per_step = times
        return cap_from_times(times)

    def apply_cached(self, loop) -> bool:
        """Give `loop` the kept cap, if there is one; whether there was."""
        cap = self.read()
        if cap is not None:
            loop.row_cap = cap
        return cap is not None

    def measure_parts(self, loop, time_step: Callable | None = None) -> list[Callable[[], None]]:
        """The measurement as separate calls (one batch each, going up through `BATCHES`, then
        the first again and keeping the result if it held still), so that a request can be
        served between them; batches above the first that the rule turns down, or beyond
        `BUDGET_S` of steps, are not timed."""
        time_step = time_step or step_ms
        times: dict[int, float] = {}

        def time_one(batch: int) -> None:
            if times and cap_from_times(times) < max(times):
                return
            if sum(times.values()) * (WARM_STEPS + TIMED_STEPS) > BUDGET_S * 1000:
                return  # the cap stays within the batches timed so far
            times[batch] = round(time_step(loop, batch), 3)

        def keep() -> None:
            cut_short = cap_from_times(times) == max(times) < BATCHES[-1]
            if cut_short and max(times) < MAX_BATCH["cpu"]:
                log.info(
                    "measuring the decode step took too long to reach %d sentences at once; "
                    "keeping that many and measuring at the next start",
                    max_batch(loop),
                )
                return
            again = time_step(loop, BATCHES[0])
            if abs(again / times[BATCHES[0]] - 1) > STEADY:
                log.info(
                    "the machine was busy while the decode step was measured (%.1f ms per "
                    "step alone, then %.1f); keeping %d sentences at once and measuring at "
                    "the next start",
                    times[BATCHES[0]],
                    again,
                    max_batch(loop),
                )
                return
            self._keep(loop, times)

        timed = [functools.partial(time_one, b) for b in BATCHES] + [keep]
        return timed if self.saved is None else [self.saved, *timed]

    def measure(self, loop, time_step: Callable | None = None) -> int:
        """Measure `loop`'s step, keep the figures, give `loop` the cap; the cap `loop` has then
        (the device's constant where the machine was too busy to tell)."""
        for part in self.measure_parts(loop, time_step):
            part()
        return max_batch(loop)

    def _keep(self, loop, times: dict[int, float]) -> None:
        cap = cap_from_times(times)
        data = {
            **self._expected(),
            "ms_per_step": {str(b): ms for b, ms in times.items()},
            "cap": cap,
        }
        try:
            write_json_atomic(self.path, data)
        except OSError as exc:  # a read-only cache folder: the next start measures again
            log.warning("the measured batch size could not be kept (%s)", exc)
        self.ms_per_step = dict(times)
        self.measured_now = True
        loop.row_cap = cap
        log.info("decode batches of up to %d sentences (step ms per batch: %s)", cap, times)
