"""The first request after loading: what it pays beyond later ones, and the steady speed, for
upstream ChatTTS and our compiled int8 step with and without TorchScript's graph optimization,
in one run. Prints JSON.

Each variant runs in a fresh process (TorchScript optimizes a function on its first call in a
process) on the random-weight model with the official shapes, loaded without its warm-up, as
the window loads it:
  first_s     the first sentence forced to --short tokens, vocoder included: what a Play
              pressed the moment the model is ready pays
  second_s    the same sentence again
  extra_s     first_s - second_s: the first call's own cost
  tokens_per_s  audio tokens per second over two sentences forced to --tokens tokens
Variants: upstream (ChatTTS's own infer), int8 (what runs: optimization off), int8-optimizing
(the executor's default). --repeats interleaves the variants that many times; the output lists
every run, so the spread is visible.

    python bench/first_call.py [--model DIR] [--short N] [--tokens N] [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model, child_json
from bench.support.results import add_save_argument, emit

SENTENCE = "今天天气很好。"
VARIANTS = ["upstream", "int8", "int8-optimizing"]
QUICK_VARIANTS = ["upstream", "int8"]  # the smoke run: ours against upstream


def run_variant(variant: str, model: str, short: int, tokens: int) -> dict:
    from app.decode.options import DecodeOptions
    from app.synthesis.synthesizer import Synthesizer
    from bench.decode import _forced_ours, _forced_upstream

    upstream = variant == "upstream"
    synth = Synthesizer(
        model,
        device="cpu",
        decode="upstream" if upstream else "jit",
        precision="fp32" if upstream else "int8",
        decode_options=DecodeOptions(int8_unoptimized=variant != "int8-optimizing"),
    )
    synth.load(warm_up=False)
    forced = _forced_upstream if upstream else _forced_ours

    def timed(fn) -> float:
        started = time.perf_counter()
        fn()
        return time.perf_counter() - started

    first = timed(forced(synth, [SENTENCE], short))
    second = timed(forced(synth, [SENTENCE], short))
    long = forced(synth, [SENTENCE], tokens)
    steady = timed(long) + timed(long)
    return {
        "decode": "upstream" if upstream else f"jit-{synth.precision}",
        "first_s": round(first, 3),
        "second_s": round(second, 3),
        "extra_s": round(first - second, 3),
        "tokens_per_s": round(2 * tokens / steady, 1),
    }


def _child(variant: str, model: str, short: int, tokens: int) -> dict:
    return child_json(
        __file__, variant, "--model", model, "--short", str(short), "--tokens", str(tokens)
    )


def _median(values: list[float]) -> float | None:
    values = sorted(values)
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else round((values[mid - 1] + values[mid]) / 2, 3)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument("--short", type=int, default=4, help="tokens of the first and second sentence")
    p.add_argument(
        "--tokens",
        type=int,
        help="tokens per sentence for the steady speed (default 128; --quick 8)",
    )
    p.add_argument("--repeats", type=int, help="runs of each variant (default 2; --quick 1)")
    p.add_argument(
        "--quick",
        action="store_true",
        help="tiny model, fewer tokens, one run, no int8-optimizing (smoke test)",
    )
    add_save_argument(p)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    tokens = args.tokens or (8 if args.quick else 128)
    args.repeats = args.repeats or (1 if args.quick else 2)
    if args.child:
        from app.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(json.dumps(run_variant(args.child, args.model, args.short, tokens)))
        return 0

    model, size = bench_model(args.model, args.quick)
    variants = QUICK_VARIANTS if args.quick else VARIANTS
    runs: dict[str, list[dict]] = {v: [] for v in variants}
    for _ in range(args.repeats):
        for variant in variants:
            runs[variant].append(_child(variant, str(model), args.short, tokens))
    summary = {
        v: {
            key: _median([r[key] for r in rs if key in r])
            for key in ("first_s", "second_s", "extra_s", "tokens_per_s")
        }
        for v, rs in runs.items()
    }
    report = {
        "model": f"random weights, {size} size",
        "short_tokens": args.short,
        "tokens_per_sentence": tokens,
        "median": summary,
        "runs": runs,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
