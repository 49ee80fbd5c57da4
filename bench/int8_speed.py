"""Decode step time of fp32 and of int8 made three ways, in one process, interleaved (so a
machine shared with other work loads them alike: compare the ratios). Prints JSON.

int8 ways: per-tensor (as it was first), per-batch (smoothed, fbgemm's one activation scale per
batch: what shipped until per-row scales), int8 as it ships (smoothed, per-row scales with the
activation levels this CPU sums exactly: decode/int8_levels.py) and int8-7bit (the same with 127
levels, what a CPU without VNNI gets).
A lighter check than bench/decode.py (which also runs upstream, the vocoder and batches, one
process per mode): `--steps` greedy steps of `--batches` copies of one sentence per mode and
round, best of `--rounds`.

ONNX Runtime ways (issue 44's spike; bench/support/ort_step.py), when onnxruntime is installed:
the same 20 layers as one ORT graph with fused norms and attention, projections in fp32
(ort-fp32), 8-bit or 4-bit block-wise weights with int8 activations per block of each row
(ort-int8, ort-int4; ort-int8-spin: its threads spinning for work between runs, ORT's own
default). `floor_ms` per way: the step's projections alone on one token (PyTorch:
bench/decode.py's floor; ORT: the same MatMulNBits nodes with nothing between them), and
`floor_reached_pct` = floor / batch-1 step.

OpenVINO ways (bench/support/ov_step.py), when openvino is installed: the step as one stateful
OpenVINO model, fp32 or compressed int8 / int4 weights (ov-fp32, ov-int8, ov-int4; floor: the same
projections alone). torchao ways (bench/support/torchao_step.py), when torchao is installed: the
PyTorch step with torchao's int8 dynamic (per-row activations) Linears, eager or torch.compile'd
(torchao-int8, torchao-int8-compiled: only when --ways names it, its compilation takes minutes),
and int4 weights per group of 32 (torchao-int4); floor: the quantized Linears alone. `first_runs_s`: the first 4 steps per batch size (compilation).

    python bench/int8_speed.py [--model DIR] [--size full|tiny] [--steps 32] [--rounds 3] [--batches 1,4]
                               [--ways fp32,int8,ort-int8,ov-int8,torchao-int8] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit


def _available(ways: list[str]) -> list[str]:
    """`ways` less those whose runtime (onnxruntime, openvino, torchao) is not installed."""
    return [w for w in ways if w.split("-")[0] not in RUNTIMES or _version(w.split("-")[0])]


RUNTIMES = {"ort": "onnxruntime", "ov": "openvino", "torchao": "torchao"}


def _version(runtime: str) -> str | None:
    """The installed version of a way's runtime ("ort", "ov", "torchao"), None if absent."""
    import importlib

    try:
        return importlib.import_module(RUNTIMES[runtime]).__version__
    except ImportError:
        return None


def _ort_version() -> str | None:
    return _version("ort")


def _steps(loop, emb, steps: int) -> None:
    """`steps` greedy decode steps of every row of `emb` (B, T, H) after its prefill."""
    import torch

    batch, prompt = emb.shape[0], emb.shape[1]
    k, v = loop.allocate_cache(batch, prompt + steps, torch.zeros)
    slots = torch.arange(prompt + steps)
    mask = torch.ones(prompt, prompt, dtype=torch.bool).tril_()[None, None]
    with torch.inference_mode():
        hidden = loop.run_stack(
            emb, torch.arange(prompt)[None], mask, k, v, slots[:prompt], prompt
        )[:, -1]
        for i in range(steps):
            codes = loop.logits(hidden, audio=True).view(batch, loop.num_vq, -1).argmax(-1)
            at = prompt + i
            x = loop.embed_tokens(codes, audio=True)
            step_mask = torch.ones(1, 1, 1, at + 1, dtype=torch.bool)
            hidden = loop.run_stack(
                x, torch.tensor([[at]]), step_mask, k, v, slots[at : at + 1], at + 1
            )[:, -1]


WAYS = [
    "fp32",
    "int8-per-tensor",
    "int8-per-batch",
    "int8",
    "int8-7bit",
    "ort-fp32",
    "ort-int8",
    "ort-int8-spin",
    "ort-int4",
    "ov-fp32",
    "ov-int8",
    "ov-int4",
    "torchao-int8",
    "torchao-int8-compiled",
    "torchao-int4",
]
# torch.compile's first runs take minutes on 2 cores: that way runs only when --ways names it.
DEFAULT_WAYS = [w for w in WAYS if w != "torchao-int8-compiled"]


def _ort_loop(reference, stack, weights: str, spinning: bool = False):
    from bench.support.ort_step import OrtLoop

    return OrtLoop(reference, stack, weights, spinning=spinning)


def _ov_loop(reference, stack, weights: str):
    from bench.support.ov_step import OvLoop

    return OvLoop(reference, stack, weights)


def _torchao_loop(reference, stack, weights: str, compile: bool = False):
    from bench.support.torchao_step import TorchaoLoop

    return TorchaoLoop(reference, stack, weights, compile=compile)


def _ov_floor(stack, weights: str, repeats: int = 20) -> float:
    """Milliseconds per step of the OpenVINO step's projections alone on one token."""
    import numpy as np

    from bench.support.ov_step import build_floor, compile_model

    request = compile_model(build_floor(stack, weights)).create_infer_request()
    width = stack.layers[0].q_proj.weight.shape[1]
    inter = stack.layers[0].gate_proj.weight.shape[0]
    feed = {
        "a": np.random.randn(1, 1, width).astype(np.float32),
        "m": np.random.randn(1, 1, inter).astype(np.float32),
    }
    for _ in range(3):
        request.infer(feed)
    started = time.perf_counter()
    for _ in range(repeats):
        request.infer(feed)
    return (time.perf_counter() - started) * 1000 / repeats


def _torchao_floor(loop, repeats: int = 20) -> float:
    """Milliseconds per step of a TorchaoLoop's quantized Linears alone on one token (eager)."""
    import torch

    linears = [m for m in loop.stack.modules() if isinstance(m, torch.nn.Linear)]
    inputs = [torch.randn(1, 1, m.in_features) for m in linears]
    with torch.inference_mode():
        for _ in range(3):
            for m, a in zip(linears, inputs):
                m(a)
        started = time.perf_counter()
        for _ in range(repeats):
            for m, a in zip(linears, inputs):
                m(a)
    return (time.perf_counter() - started) * 1000 / repeats


def _ort_floor(stack, weights: str) -> float:
    """Milliseconds per step of the ORT step's projections alone on one token."""
    from app.decode.ort_graph import stack_matrices
    from bench.support.ort_step import BITS, floor_ms

    return floor_ms(stack_matrices(stack), BITS[weights])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (random weights of --size built there if empty)")
    p.add_argument("--size", choices=["full", "tiny"], help="default full; --quick tiny")
    p.add_argument("--steps", type=int, help="greedy steps per round (default 32; --quick 4)")
    p.add_argument("--rounds", type=int, help="best of (default 3; --quick 1)")
    p.add_argument("--batches", help="comma-separated batch sizes (default 1,4; --quick 1)")
    p.add_argument(
        "--ways",
        help="comma-separated, from " + ",".join(WAYS) + " (default all but torchao-int8-compiled)",
    )
    p.add_argument(
        "--quick", action="store_true", help="tiny model, few steps, one round (smoke test)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.size = args.size or ("tiny" if args.quick else "full")
    args.steps = args.steps or (4 if args.quick else 32)
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.batches = args.batches or ("1" if args.quick else "1,4")
    import torch

    from app.decode import int8
    from app.decode.int8_levels import SAFE
    from app.decode.llama_step import LlamaStack
    from app.decode.loop import DecodeLoop
    from app.decode.modes import DecodeMode
    from app.decode.options import DecodeOptions
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.synthesizer import Synthesizer
    from bench.decode import _matmul_floor
    from bench.support.int8_variants import at_levels
    from tests.support.precision_compare import prompt_embedding

    quiet_libraries()
    model, _size = bench_model(args.model, args.size == "tiny")
    synth = Synthesizer(model, device="cpu", precision="fp32")
    synth.load(verify=False)
    emb = prompt_embedding(synth.parts, synth.speaker_for_seed(1))

    batches = [int(b) for b in args.batches.split(",")]
    ways = args.ways.split(",") if args.ways else _available(DEFAULT_WAYS)
    unknown = set(ways) - set(WAYS)
    if unknown:
        p.error(f"unknown ways: {', '.join(sorted(unknown))}")
    reference = DecodeLoop(synth.parts, "eager", "fp32")  # the ORT ways' embeddings and heads
    stack = LlamaStack(synth.parts.llama).eval()
    loops, build_s, floor_ms, first_runs_s = {}, {}, {}, {}
    for name, make in (
        ("fp32", lambda: DecodeLoop(synth.parts, "jit", "fp32")),
        (
            "int8-per-tensor",
            lambda: DecodeLoop(
                synth.parts, "jit", "int8", options=DecodeOptions(int8_recipe=int8.PER_TENSOR)
            ),
        ),
        (
            "int8-per-batch",
            lambda: DecodeLoop(
                synth.parts, "jit", "int8", options=DecodeOptions(int8_recipe=int8.PER_BATCH)
            ),
        ),
        ("int8", lambda: DecodeLoop(synth.parts, "jit", "int8")),
        ("int8-7bit", lambda: at_levels(SAFE, lambda: DecodeLoop(synth.parts, "jit", "int8"))),
        ("ort-fp32", lambda: _ort_loop(reference, stack, "fp32")),
        ("ort-int8", lambda: _ort_loop(reference, stack, "int8")),
        ("ort-int8-spin", lambda: _ort_loop(reference, stack, "int8", spinning=True)),
        ("ort-int4", lambda: _ort_loop(reference, stack, "int4")),
        ("ov-fp32", lambda: _ov_loop(reference, stack, "fp32")),
        ("ov-int8", lambda: _ov_loop(reference, stack, "int8")),
        ("ov-int4", lambda: _ov_loop(reference, stack, "int4")),
        ("torchao-int8", lambda: _torchao_loop(reference, stack, "int8")),
        ("torchao-int8-compiled", lambda: _torchao_loop(reference, stack, "int8", True)),
        ("torchao-int4", lambda: _torchao_loop(reference, stack, "int4")),
    ):
        if name not in ways:
            continue
        started = time.perf_counter()
        loops[name] = make()
        if name.startswith("ort-"):
            floor_ms[name] = round(_ort_floor(stack, name[4:].removesuffix("-spin")), 2)
        elif name.startswith("ov-"):
            floor_ms[name] = round(_ov_floor(stack, name[3:]), 2)
        elif name.startswith("torchao-"):
            floor_ms[name] = round(_torchao_floor(loops[name]), 2)
        else:
            assert loops[name].mode is DecodeMode.JIT, loops[name].jit_error
            floor_ms[name] = round(_matmul_floor(loops[name]), 2)
        build_s[name] = round(time.perf_counter() - started, 2)
        started = time.perf_counter()
        for b in batches:
            # TorchScript's and torch.compile's first runs
            _steps(loops[name], emb.expand(b, -1, -1).contiguous(), 4)
        first_runs_s[name] = round(time.perf_counter() - started, 2)
    best = {f"{name} b{b}": float("inf") for name in loops for b in batches}
    for _round in range(args.rounds):
        for b in batches:
            for name, loop in loops.items():
                started = time.perf_counter()
                _steps(loop, emb.expand(b, -1, -1).contiguous(), args.steps)
                best[f"{name} b{b}"] = min(
                    best[f"{name} b{b}"], (time.perf_counter() - started) * 1000 / args.steps
                )
    report = {
        "model": f"random weights, {args.size} size",
        "steps": args.steps,
        "rounds": args.rounds,
        "cpu_threads": torch.get_num_threads(),
        "ms_per_step": {k: round(v, 2) for k, v in best.items()},
        "speedup_vs_fp32": {
            k: round(best["fp32 b" + k.rsplit(" b", 1)[1]] / v, 2)
            for k, v in best.items()
            if "fp32" in loops
        },
        "floor_ms": floor_ms,
        "floor_reached_pct": {
            name: round(100 * floor_ms[name] / best[f"{name} b1"], 1)
            for name in loops
            if f"{name} b1" in best
        },
        "build_s": build_s,
        "first_runs_s": first_runs_s,
        "onnxruntime": _ort_version(),
        "openvino": _version("ov"),
        "torchao": _version("torchao"),
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
