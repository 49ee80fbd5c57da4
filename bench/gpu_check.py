"""What only an NVIDIA GPU can show about our decode path. Prints one JSON object.

    python bench/gpu_check.py [--model DIR] [--steps N] [--quick] [--save]

On the tiny random-weight model (built into --model if that folder is empty), on cuda:0:
  precision_auto     what `auto` picks on this card (bf16 needs compute capability 8.0+)
  graphs             per precision: the loop runs as CUDA graphs ("graph-..."), one graph per
                     length bucket it crossed, none captured again by a second request of the
                     same shape, and its greedy tokens against the same loop without graphs
  agreement          fp16/bf16 against fp32: cosine of the first step's logits, and how many
                     greedy tokens agree before the first difference (random weights: a
                     difference late in a sentence is expected, at once is not)
  host_syncs         host reads per token of a graph decode (at most one every few steps)
  peak_gpu_mb        the most memory PyTorch allocated during the checks
Random weights make noise; these are arithmetic checks, not listening tests.
--quick: a few steps; without a GPU it runs the same checks on the CPU (fp32 and bf16, no
graphs) and lists under "skipped" what only a card can show, so the script is smoke-tested
everywhere (tests/bench/test_bench_smoke.py); bench/gpu_check.sh runs the full check.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.results import add_save_argument, emit

# What a run without a card leaves out (it checks the same arithmetic on the CPU instead).
CPU_SKIPS = [
    "CUDA graphs (the CPU loop runs TorchScript, not graphs)",
    "fp16 against fp32",
    "host_syncs (host reads per token of a graph decode)",
    "peak_gpu_mb",
]

TEXTS = [
    "你好，世界。",
    "Hello there, this one is a much longer sentence than the first。",
    "再见。",
]


def _greedy(loop, chat, steps: int):
    from app.decode.passes import PassParams
    from app.decode.prompts import code_prompt
    from tests.support.decode_hooks import hooking_steps

    emb, mask = code_prompt(chat, TEXTS, "[speed_5]", None, None, None)
    eos = int(chat.config.gpt.num_audio_tokens) - 1
    seen = []
    params = PassParams(1.0, 1.0, 0, 1.0, steps, min_new_tokens=steps, greedy=True)  # forced length
    with hooking_steps(loop, lambda i, logits, rows: i == 0 and seen.append(logits.float().cpu())):
        result = list(loop.generate(emb, mask, True, params, [1, 2, 3], eos=eos))[-1]
    return [t.cpu() for t in result.tokens], seen[0]


def _agreeing(a, b) -> list[int]:
    """Per sentence: tokens equal before the first difference."""
    counts = []
    for x, y in zip(a, b):
        n = min(len(x), len(y))
        same = (x[:n] == y[:n]).all(dim=-1) if x.dim() > 1 else x[:n] == y[:n]
        bad = (~same).nonzero()
        counts.append(int(bad[0, 0]) if bad.numel() else n)
    return counts


def _count_syncs(loop, chat, steps: int) -> float:
    """Host reads (`Tensor.__bool__`, `.item()`, `.tolist()`) per decoded token."""
    import torch

    counted = {"n": 0}
    originals = {name: getattr(torch.Tensor, name) for name in ("__bool__", "item", "tolist")}

    def counting(name):
        def wrapper(self, *a, **k):
            if self.is_cuda:
                counted["n"] += 1
            return originals[name](self, *a, **k)

        return wrapper

    for name in originals:
        setattr(torch.Tensor, name, counting(name))
    try:
        _greedy(loop, chat, steps)
    finally:
        for name, fn in originals.items():
            setattr(torch.Tensor, name, fn)
    return round(counted["n"] / steps, 3)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (tiny random weights built there if empty)")
    p.add_argument(
        "--steps",
        type=int,
        help="greedy tokens per sentence (default 300: crosses a bucket at 256; --quick 8)",
    )
    p.add_argument("--device", choices=["cuda", "cpu"], help=argparse.SUPPRESS)
    p.add_argument(
        "--quick",
        action="store_true",
        help="a few steps; on the CPU when there is no GPU, saying what it skipped (smoke test)",
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    import torch

    args.steps = args.steps or (8 if args.quick else 300)
    if args.device is None:
        args.device = "cpu" if args.quick and not torch.cuda.is_available() else "cuda"
    gpu = args.device == "cuda"
    if gpu and not torch.cuda.is_available():
        print(json.dumps({"error": "PyTorch sees no NVIDIA GPU here; this check needs one."}))
        return 2
    from app.decode import precision as prec
    from app.decode.loop import DecodeLoop
    from app.synthesis.chattts_model import quiet_libraries
    from app.synthesis.synthesizer import Synthesizer

    quiet_libraries()
    model = Path(args.model or Path(tempfile.gettempdir()) / "chattts-studio-gpu-check-tiny")
    if not (model / "chattts-studio-model.json").exists():
        from app.selftest.random_model import build_random_model

        build_random_model(model, size="tiny", seed=0)
    synth = Synthesizer(model, device=args.device, precision="fp32")
    synth.load(verify=False)
    chat = synth.parts
    report = {
        "device": args.device,
        "steps": args.steps,
        "skipped": [] if gpu else CPU_SKIPS,
        "gpu": torch.cuda.get_device_name(0) if gpu else None,
        "capability": list(torch.cuda.get_device_capability(0)) if gpu else None,
        "torch": torch.__version__,
        "precision_auto": prec.choose("auto", "cuda")[0] if gpu else prec.choose("auto", "cpu")[0],
        "loaded_as": synth.decode_label,
        "graphs": {},
        "agreement": {},
    }
    reference, reference_logits = _greedy(DecodeLoop(chat, "eager", "fp32"), chat, args.steps)
    for precision in ("fp32", "fp16", "bf16") if gpu else ("fp32", "bf16"):
        graphed = DecodeLoop(chat, "jit", precision)
        tokens, logits = _greedy(graphed, chat, args.steps)
        entries = {f"{b}x{c}": sorted(e.graphs) for (b, c), e in graphed.static_caches.items()}
        captured = sum(len(g) for g in entries.values())
        _greedy(graphed, chat, args.steps)
        again = sum(len(e.graphs) for e in dict(graphed.static_caches.items()).values())
        plain, _ = _greedy(DecodeLoop(chat, "eager", precision), chat, args.steps)
        report["graphs"][precision] = {
            "mode": f"{graphed.mode}-{graphed.precision}",
            "buckets_captured": entries,
            "captured_again_by_second_request": again - captured,
            "tokens_agreeing_with_eager_same_precision": _agreeing(tokens, plain),
            "sentence_lengths": [len(t) for t in tokens],
        }
        if precision != "fp32":
            cosine = torch.nn.functional.cosine_similarity(
                logits.flatten(), reference_logits.flatten(), dim=0
            )
            report["agreement"][precision] = {
                "first_step_logit_cosine": round(float(cosine), 5),
                "greedy_tokens_agreeing_with_fp32": _agreeing(tokens, reference),
            }
    if gpu:
        report["host_syncs"] = {
            "per_token_graph_fp16": _count_syncs(DecodeLoop(chat, "jit", "fp16"), chat, args.steps)
        }
        report["peak_gpu_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
