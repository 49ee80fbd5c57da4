"""Where the model is loaded: on the engine's own thread (what ships, Engine.loading) against
on a thread that stays alive beside it (the window's worker, a command's main thread, before),
with upstream ChatTTS on its loading thread as the reference, in one run. Prints JSON.

PyTorch keeps an OpenMP pool per thread that has run its CPU kernels, for as long as that
thread lives. Two live pools are more pool threads than a 2-core CPU has cores, and OpenMP
then sleeps between kernels instead of spinning: every small kernel of a decode step pays a
wake-up. Each variant runs in its own process on the random-weight model with the official
shapes (built once, as bench/decode.py does): it loads, then decodes sentences of --tokens
tokens (forced) through an Engine, `--rounds` times, streaming as the window does.

    python bench/engine_thread.py [--model DIR] [--tokens N] [--rounds N] [--repeats N]
                                  [--precision auto|int8|fp32] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model, child_json
from bench.support.results import add_save_argument, emit

VARIANTS = [
    "loaded on the engine thread (shipped)",
    "loaded on a live thread beside it (before)",
    "upstream ChatTTS, on its loading thread",
]
SENTENCE = "今天天气很好，我们一起去公园散步吧。"


def run_variant(variant: str, model: str, tokens: int, rounds: int, precision: str) -> dict:
    from app.core.request import SamplingParams, SynthesisRequest
    from app.synthesis.engine import Engine
    from app.synthesis.synthesizer import Synthesizer

    synth = Synthesizer(
        model,
        device="cpu",
        decode="upstream" if variant == VARIANTS[2] else "jit",
        precision=precision,
    )
    request = SynthesisRequest(
        SENTENCE,
        refine_text=False,
        voice_lock=False,
        sampling=SamplingParams(max_new_tokens=tokens, min_new_tokens=tokens),
    )
    engine = None
    if variant == VARIANTS[0]:
        engine = Engine.loading(synth, verify=False)
    else:
        synth.load(verify=False)
        if variant == VARIANTS[1]:
            engine = Engine(synth)
    if engine is None:
        run = lambda: synth.run(request)  # noqa: E731
    else:
        run = lambda: engine.submit(request).result()  # noqa: E731
    run()  # first calls
    seconds = []
    for _ in range(rounds):
        started = time.perf_counter()
        run()
        seconds.append(round(time.perf_counter() - started, 3))
    if engine is not None:
        engine.close(60)
    return {
        "decode": synth.decode_label,
        "seconds": seconds,
        "tokens_per_s": round(tokens / statistics.median(seconds), 1),
    }


def _child(variant: str, model: str, args) -> dict:
    return child_json(
        __file__,
        str(VARIANTS.index(variant)),
        "--model",
        model,
        "--tokens",
        str(args.tokens),
        "--rounds",
        str(args.rounds),
        "--precision",
        args.precision,
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 96; --quick 8)")
    p.add_argument("--rounds", type=int, help="sentences timed per process (default 3; --quick 1)")
    p.add_argument(
        "--repeats", type=int, help="processes per variant, interleaved (default 2; --quick 1)"
    )
    p.add_argument("--precision", default="auto")
    p.add_argument("--quick", action="store_true", help="tiny model, one round (smoke test)")
    add_save_argument(p)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.tokens = args.tokens or (8 if args.quick else 96)
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.repeats = args.repeats or (1 if args.quick else 2)
    if args.child is not None:
        from app.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(
            json.dumps(
                run_variant(
                    VARIANTS[int(args.child)], args.model, args.tokens, args.rounds, args.precision
                )
            )
        )
        return 0
    model, size = bench_model(args.model, args.quick)
    runs: dict[str, list[dict]] = {v: [] for v in VARIANTS}
    for _ in range(args.repeats):
        for variant in VARIANTS:
            runs[variant].append(_child(variant, str(model), args))
    report = {
        "model": f"random weights, {size} size",
        "cpu_count": os.cpu_count(),
        "tokens_per_sentence": args.tokens,
        "runs": runs,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
