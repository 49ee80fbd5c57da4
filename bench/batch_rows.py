"""The decode step's cost per row at each batch the CPU's row cap considers, and the cap the rule
(app/decode/row_cap.py) chooses from it. Prints JSON.

Each batch's step is timed the way the program times it at its first warm-up (row_cap.step_ms:
embedding, the compiled stack over a 128-token cache, the heads, a pick; the least of a few
steps), here in `--rounds` rounds that go through every batch in turn (so a machine shared with
other work loads them alike), best per batch. `cap_by_margin`: the cap each margin would give;
`in_app`: the program's own measurement (one pass, stopping where the rule stops), its seconds,
its cap and whether it was kept (not when the machine's load moved meanwhile).

    python bench/batch_rows.py [--model DIR] [--precision int8] [--batches 1,2,4,6,8,12,16]
                               [--rounds 3] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

MARGINS = (0.05, 0.10, 0.15, 0.20)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (random full-size weights built there if empty)")
    p.add_argument("--precision", default="int8", help="decode precision (default int8)")
    p.add_argument("--batches", help="comma-separated batch sizes (default the rule's own)")
    p.add_argument("--rounds", type=int, help="rounds over every batch, best of (default 3)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny model, one round (smoke test; figures mean nothing)",
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.rounds = args.rounds or (1 if args.quick else 3)
    import torch

    from app.decode import RowCap
    from app.decode.loop import DecodeLoop
    from app.decode.modes import DecodeMode
    from app.decode.row_cap import BATCHES, CACHE_TOKENS, MARGIN, cap_from_times, step_ms
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.synthesizer import Synthesizer

    quiet_libraries()
    batches = [int(b) for b in args.batches.split(",")] if args.batches else list(BATCHES)
    model, size = bench_model(args.model, args.quick)
    synth = Synthesizer(model, device="cpu", precision="fp32", step_cache=False)
    synth.load(verify=False, warm_up=False)
    loop = DecodeLoop(synth.parts, "jit", args.precision)
    assert loop.mode is DecodeMode.JIT, loop.jit_error

    best = {b: float("inf") for b in batches}
    for _round in range(args.rounds):
        for b in batches:
            best[b] = min(best[b], step_ms(loop, b))
    per_row = {b: best[b] / b for b in batches}
    falls = {
        str(b): round(100 * (1 - per_row[b] / per_row[before]), 1)
        for before, b in zip(batches, batches[1:])
    }
    with tempfile.TemporaryDirectory() as folder:
        rows = RowCap(Path(folder) / "rows.json")
        started = time.perf_counter()
        in_app_cap = rows.measure(loop)
        in_app = {
            "cap": in_app_cap,
            "kept": rows.measured_now,  # False: the machine was too busy (the device's constant)
            "seconds": round(time.perf_counter() - started, 2),
            "ms_per_step": {str(b): ms for b, ms in rows.ms_per_step.items()},
        }
    report = {
        "model": f"random weights, {size} size",
        "precision": loop.precision,
        "cpu_threads": torch.get_num_threads(),
        "cache_tokens": CACHE_TOKENS,
        "rounds": args.rounds,
        "ms_per_step": {str(b): round(best[b], 2) for b in batches},
        "ms_per_row": {str(b): round(per_row[b], 2) for b in batches},
        "rows_per_s": {str(b): round(1000 / per_row[b], 1) for b in batches},
        "per_row_fall_pct": falls,
        "margin": MARGIN,
        "cap": cap_from_times(best),
        "cap_by_margin": {str(m): cap_from_times(best, m) for m in MARGINS},
        "in_app": in_app,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
