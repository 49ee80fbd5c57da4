"""Decode step time of fp32, int8 as before (per-tensor) and int8 as it ships, in one process,
interleaved (so a machine shared with other work loads them alike: compare the ratios). Prints JSON.

A lighter check than bench/decode.py (which also runs upstream, the vocoder and batches, one
process per mode): `--steps` greedy steps of one sentence per mode and round, best of `--rounds`.

    python bench/int8_speed.py [--model DIR] [--size full|tiny] [--steps 32] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model")
    p.add_argument("--size", choices=["full", "tiny"], default="full")
    p.add_argument("--steps", type=int, default=32)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    import torch

    from app.engine.decode import int8
    from app.engine.decode.loop import DecodeLoop
    from app.engine.synthesis.chattts_model import quiet_libraries
    from app.engine.synthesis.synthesizer import Synthesizer
    from tests.support.precision_compare import _decode, prompt_embedding

    quiet_libraries()
    model = Path(args.model or Path(tempfile.gettempdir()) / f"chattts-studio-bench-{args.size}")
    if not (model / "chattts-studio-model.json").exists():
        from app.selftest.random_model import build_random_model

        build_random_model(model, size=args.size, seed=0)
    synth = Synthesizer(model, device="cpu", precision="fp32")
    synth.load(verify=False)
    emb = prompt_embedding(synth.chat, synth.speaker_for_seed(1))

    class PerTensor(DecodeLoop):
        int8_recipe = int8.PER_TENSOR

    loops, build_s = {}, {}
    for name, make in (("fp32", lambda: DecodeLoop(synth.chat, "jit", "fp32")),
                       ("int8-per-tensor", lambda: PerTensor(synth.chat, "jit", "int8")),
                       ("int8", lambda: DecodeLoop(synth.chat, "jit", "int8"))):
        started = time.perf_counter()
        loops[name] = make()
        build_s[name] = round(time.perf_counter() - started, 2)
        _decode(loops[name], emb, 4)                 # TorchScript's first runs
    best = {name: float("inf") for name in loops}
    for _round in range(args.rounds):
        for name, loop in loops.items():
            started = time.perf_counter()
            _decode(loop, emb, args.steps)
            best[name] = min(best[name], (time.perf_counter() - started) * 1000 / args.steps)
    print(json.dumps({
        "model": f"random weights, {args.size} size", "steps": args.steps, "rounds": args.rounds,
        "cpu_threads": torch.get_num_threads(),
        "ms_per_step": {k: round(v, 2) for k, v in best.items()},
        "speedup_vs_fp32": {k: round(best["fp32"] / v, 2) for k, v in best.items()},
        "build_s": build_s,
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
