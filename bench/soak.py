"""Memory over many short syntheses: does resident memory grow? Prints JSON.

Runs --count short sentences through the Synthesizer, ours and upstream ChatTTS each in its
own process, sampling RSS every --every syntheses after a warm-up, and reports the
least-squares slope in MB per 1,000 syntheses (about zero when nothing leaks). Uses the tiny
random-weight model unless --model is given, so a thousand runs take minutes, not hours.

    python bench/soak.py [--count 1000] [--every 50] [--model DIR] [--modes jit-fp32,upstream]
                         [--quick] [--save]

--quick: 4 syntheses after one to warm up, RSS every 2: it shows the script runs, not
whether memory grows (that needs the full count).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

TEXTS = ["你好。", "今天天气很好。", "Hello there.", "我们走吧。"]
WARM_UP = 20


def _rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 2**20


def _slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else 0.0


def run_mode(mode: str, model: str, count: int, every: int, warm_up: int = WARM_UP) -> dict:
    from app.core.request import SamplingParams, SynthesisRequest
    from app.synthesis.synthesizer import Synthesizer

    decode, _, precision = mode.partition("-")
    synth = Synthesizer(model, device="cpu", decode=decode, precision=precision or "auto")
    synth.load(verify=False)
    params = SamplingParams(max_new_tokens=24)

    def once(i: int) -> None:
        # Refinement off: on random weights it always runs to its 384-token limit, which would
        # make a thousand runs take hours without exercising anything the audio pass does not.
        synth.run(
            SynthesisRequest(TEXTS[i % len(TEXTS)], seed=i, refine_text=False, sampling=params)
        )

    for i in range(warm_up):
        once(i)
    xs, ys = [], []
    for i in range(count):
        once(i)
        if i % every == 0 or i == count - 1:
            xs.append(i)
            ys.append(_rss_mb())
    return {
        "syntheses": count,
        "rss_start_mb": round(ys[0], 1),
        "rss_end_mb": round(ys[-1], 1),
        "rss_slope_mb_per_1000": round(1000 * _slope(xs, ys), 2),
        "decode": synth.decode_label,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, help="syntheses per mode (default 1000; --quick 4)")
    p.add_argument("--every", type=int, help="RSS sampled every N (default 50; --quick 2)")
    p.add_argument(
        "--model", help="model folder (default: a tiny random-weight model, built on first use)"
    )
    p.add_argument("--modes", default="jit-fp32,upstream")
    p.add_argument("--quick", action="store_true", help="a handful of syntheses (smoke test)")
    add_save_argument(p)
    p.add_argument("--warm-up", type=int, help=argparse.SUPPRESS)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.count = args.count or (4 if args.quick else 1000)
    args.every = args.every or (2 if args.quick else 50)
    args.warm_up = args.warm_up or (1 if args.quick else WARM_UP)
    if args.child:
        from app.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(json.dumps(run_mode(args.child, args.model, args.count, args.every, args.warm_up)))
        return 0
    model, _size = bench_model(args.model, True)  # the tiny model: many runs, not big ones
    results = {}
    for mode in args.modes.split(","):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                mode,
                "--model",
                str(model),
                "--count",
                str(args.count),
                "--every",
                str(args.every),
                "--warm-up",
                str(args.warm_up),
            ],
            capture_output=True,
            text=True,
            env={**os.environ, "HF_HUB_OFFLINE": "1"},
        )
        results[mode] = (
            json.loads(out.stdout.strip().splitlines()[-1])
            if out.returncode == 0
            else {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
        )
    report = {"device": "cpu", "model": str(model), "warm_up": args.warm_up, "modes": results}
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
