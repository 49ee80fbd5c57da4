"""One tree's decode, timed many times in one process: compare_revisions.py's `--bench steady`.

bench/decode.py times each shape once per process, so on a machine whose speed drifts by tens of
percent a comparison of two trees needs many processes. This harness (always the head's copy)
runs in the tree given as its working directory, loads the model once, warms every shape up,
then times `--repeat` rounds of: one sentence forced to --tokens tokens, four such sentences,
and a paragraph through the Synthesizer, interleaved; it prints the medians (wall and process
CPU seconds, so a busy machine shows as wall > CPU x threads) as one JSON line.

    python bench/support/steady_decode.py MODEL [--tokens 64] [--repeat 6] [--mode jit-int8]
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time

SENTENCE = "今天天气很好，我们一起去公园散步吧。"
PARAGRAPH = (
    "今天天气很好，我们一起去公园散步吧。公园里有很多人在跑步和打太极。"
    "我们在湖边坐了一会儿，看着水里的鱼。太阳下山以后我们才回家。"
)


def _module(*names: str):
    """The first of `names` this tree has: revisions before the domain packages kept the
    engine under app/engine."""
    for name in names:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(names[0])


def _forced(synth, texts: list[str], tokens: int):
    """A call decoding `texts` forced to `tokens` tokens each, as bench/decode.py's are."""
    bench_decode = _module("bench.decode")
    return bench_decode._forced_ours(synth, texts, tokens)


def _timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model")
    p.add_argument("--tokens", type=int, default=64)
    p.add_argument("--repeat", type=int, default=6)
    p.add_argument("--mode", default="jit-int8")
    args = p.parse_args(argv)
    sys.path.insert(0, os.getcwd())  # the tree under test, not this file's
    synth_mod = _module("app.synthesis.synthesizer", "app.engine.synthesis.synthesizer")
    request_mod = _module("app.core.request", "app.engine.request")
    decode, _, precision = args.mode.partition("-")
    synth = synth_mod.Synthesizer(args.model, device="cpu", decode=decode, precision=precision)
    synth.load(verify=False)

    def paragraph():
        sampling = request_mod.SamplingParams(
            max_new_tokens=2 * args.tokens, min_new_tokens=2 * args.tokens
        )
        synth.run(
            request_mod.SynthesisRequest(
                PARAGRAPH, refine_text=False, voice_lock=False, sampling=sampling
            )
        )

    calls = {
        "b1": _forced(synth, [SENTENCE], args.tokens),
        "b4": _forced(synth, [SENTENCE] * 4, args.tokens),
        "paragraph": paragraph,
    }
    for call in calls.values():  # warm-up: first runs of a shape are slower
        call()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in calls}
    for _ in range(args.repeat):
        for name, call in calls.items():
            times[name].append(_timed(call))
    out = {}
    for name, pairs in times.items():
        out[f"{name}_wall_s"] = round(statistics.median(w for w, _ in pairs), 4)
        out[f"{name}_cpu_s"] = round(statistics.median(c for _, c in pairs), 4)
    out["tokens_per_s_b1"] = round(args.tokens / out["b1_wall_s"], 2)
    out["tokens_per_s_b4"] = round(4 * args.tokens / out["b4_wall_s"], 2)
    out["decode"] = synth.decode_label
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
