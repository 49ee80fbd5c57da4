"""Memory over many short syntheses: does resident memory grow? Prints JSON.

Runs --count short sentences through the Synthesizer, ours and upstream ChatTTS each in its
own process, sampling RSS every --every syntheses after a warm-up, and reports the
least-squares slope in MB per 1,000 syntheses (about zero when nothing leaks). Uses the tiny
random-weight model unless --model is given, so a thousand runs take minutes, not hours.

    python bench/soak.py [--count 1000] [--every 50] [--model DIR] [--modes jit-fp32,upstream]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

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


def run_mode(mode: str, model: str, count: int, every: int) -> dict:
    from app.engine.request import SamplingParams, SynthesisRequest
    from app.engine.synthesis.synthesizer import Synthesizer

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

    for i in range(WARM_UP):
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
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--every", type=int, default=50)
    p.add_argument(
        "--model", help="model folder (default: a tiny random-weight model, built on first use)"
    )
    p.add_argument("--modes", default="jit-fp32,upstream")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        from app.engine.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(json.dumps(run_mode(args.child, args.model, args.count, args.every)))
        return 0
    model = Path(args.model or Path(tempfile.gettempdir()) / "chattts-studio-bench-tiny")
    if not (model / "chattts-studio-model.json").exists():
        from app.selftest.random_model import build_random_model

        build_random_model(model, size="tiny", seed=0)
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
    print(json.dumps({"device": "cpu", "model": str(model), "modes": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
