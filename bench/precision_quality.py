"""How far each CPU precision strays from fp32, on the random model with and without outlier
channels (tests/support/outlier_model.py). Prints JSON.

Models: random (as built), unit_gain (the stress model's layers that matter, no outliers),
outliers (the stress model). Modes: bf16; int8 as it ships (decode/int8.py RECIPE: SmoothQuant folded into the weights,
per-channel int8 weights, activation scales per row at this CPU's levels); int8-7bit (the same at
127 levels, what a CPU without VNNI runs); int8-weights-only (the same int8 weights with fp32
activations: what the weights alone cost); int8-per-batch (the same, but fbgemm's one
activation scale per batch: what shipped before per-row scales); int8-per-tensor (int8 first:
one scale per weight tensor, no smoothing); int8-per-channel (per-channel weights, no
smoothing, one activation scale per batch); int8-smooth-per-tensor; ort-int8 and ort-int4 (the step as one ONNX Runtime graph with 8- or
4-bit block-wise weights and int8 activations per block of each row: bench/support/ort_step.py,
when onnxruntime is installed); ov-int8 and ov-int4 (the same as one OpenVINO model with
compressed weights: bench/support/ov_step.py) and torchao-int8 and torchao-int4 (torchao's
dynamic int8 activations with int8 or int4 weights: bench/support/torchao_step.py), when their
package is installed.
Per mode and model, the numbers of tests/support/precision_compare.py over --steps greedy steps
of one sentence: first_divergence, free_agreement, top1_agreement (teacher forced), logit
max_abs, max_rel, min_cosine, mean_cosine.

    python bench/precision_quality.py [--model DIR] [--size full|tiny] [--steps N] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

MODELS = ["random", "unit_gain", "outliers"]
MODES = [
    "bf16",
    "int8",
    "int8-7bit",
    "int8-weights-only",
    "int8-per-batch",
    "int8-per-tensor",
    "int8-per-channel",
    "int8-smooth-per-tensor",
    "ort-int8",
    "ort-int4",
    "ov-int8",
    "ov-int4",
    "torchao-int8",
    "torchao-int4",
]
QUICK_MODES = ["bf16", "int8"]  # the precisions that ship


def _recipes():
    from app.decode import int8

    return {
        "int8": int8.RECIPE,
        "int8-per-batch": int8.PER_BATCH,
        "int8-per-tensor": int8.PER_TENSOR,
        "int8-per-channel": int8.Recipe(alpha=None, per_channel=True, rows=False),
        "int8-smooth-per-tensor": int8.Recipe(
            alpha=int8.RECIPE.alpha, per_channel=False, rows=False
        ),
    }


def _loop(view, mode: str):
    from app.decode.loop import DecodeLoop
    from app.decode.options import DecodeOptions

    if mode.startswith("ort-"):  # issue 44's spike: the step as one ONNX Runtime graph
        from app.decode.llama_step import LlamaStack
        from bench.support.ort_step import OrtLoop

        stack = LlamaStack(view.llama).eval()
        return OrtLoop(DecodeLoop(view, "eager", "fp32"), stack, mode[4:])
    if mode.startswith(("ov-", "torchao-")):  # the same spike on OpenVINO and torchao
        from app.decode.llama_step import LlamaStack

        stack = LlamaStack(view.llama).eval()
        runtime, weights = mode.split("-", 1)
        if runtime == "ov":
            from bench.support.ov_step import OvLoop

            return OvLoop(DecodeLoop(view, "eager", "fp32"), stack, weights)
        from bench.support.torchao_step import TorchaoLoop

        return TorchaoLoop(DecodeLoop(view, "eager", "fp32"), stack, weights)

    if mode == "int8-7bit":  # what a CPU without VNNI runs (decode/int8_levels.py)
        from app.decode.int8_levels import SAFE
        from bench.support.int8_variants import at_levels

        return at_levels(SAFE, lambda: DecodeLoop(view, "jit", "int8"))
    if mode == "int8-weights-only":  # the int8 weights with fp32 activations
        from bench.support.int8_variants import weights_only

        return weights_only(DecodeLoop(view, "eager", "int8"))
    recipe = _recipes().get(mode)
    return DecodeLoop(
        view,
        "jit",
        "int8" if recipe is not None else mode,
        options=DecodeOptions(int8_recipe=recipe),
    )


def measure(chat, emb, steps: int, modes: list[str], models: list[str]) -> dict:
    from tests.support.outlier_model import plain, stress_view
    from tests.support.precision_compare import compare, reference_run

    makers = {
        "random": plain,
        "unit_gain": lambda c: stress_view(c, outliers=False),
        "outliers": stress_view,
    }
    report = {}
    for name in models:
        view = makers[name](chat)
        reference = reference_run(_loop(view, "fp32"), emb, steps)
        report[name] = {}
        if name == "outliers":
            # The same fp32 function as unit_gain: its fp32 against unit_gain's fp32.
            report[name]["fp32_vs_unit_gain_fp32"] = compare(
                reference_run(_loop(stress_view(chat, outliers=False), "fp32"), emb, steps),
                _loop(view, "fp32"),
                emb,
                steps,
            )
        for mode in modes:
            started = time.perf_counter()
            loop = _loop(view, mode)
            built = time.perf_counter() - started
            report[name][mode] = {
                **compare(reference, loop, emb, steps),
                "build_s": round(built, 2),
            }
            del loop
        del view, reference
    return report


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random weights of --size if empty or missing)"
    )
    p.add_argument("--size", choices=["full", "tiny"], help="default full; --quick tiny")
    p.add_argument("--steps", type=int, help="greedy steps per comparison (default 300; --quick 8)")
    p.add_argument("--modes", help="comma-separated, from " + ",".join(MODES))
    p.add_argument(
        "--models",
        default=",".join(MODELS),
        help="comma-separated, from " + ",".join(MODELS) + " (default all)",
    )
    p.add_argument(
        "--quick", action="store_true", help="tiny model, a few steps, bf16 and int8 (smoke test)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.size = args.size or ("tiny" if args.quick else "full")
    args.steps = args.steps or (8 if args.quick else 300)
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.synthesizer import Synthesizer
    from tests.support.precision_compare import prompt_embedding

    quiet_libraries()
    model, _size = bench_model(args.model, args.size == "tiny")
    synth = Synthesizer(model, device="cpu", precision="fp32")
    synth.load(verify=False)
    emb = prompt_embedding(synth.parts, synth.speaker_for_seed(1))
    modes = args.modes.split(",") if args.modes else (QUICK_MODES if args.quick else MODES)
    import torch

    report = {
        "model": f"random weights, {args.size} size",
        "steps": args.steps,
        "cpu_threads": torch.get_num_threads(),
        "results": measure(synth.parts, emb, args.steps, modes, args.models.split(",")),
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
