"""Decode speed: upstream ChatTTS against each of our modes, in one run. Prints JSON.

Each mode runs in its own process (so peak RSS is its own) on the same random-weight model
with the official shapes (built once into --model if that folder is empty). Per mode:
  tokens_per_s_b1 / _b4  audio tokens per second for 1 / 4 sentences forced to --tokens tokens
                         each (min = max new tokens), vocoder included, refinement off
  rtf_paragraph          synthesis time / audio length for a 4-sentence paragraph through the
                         Synthesizer (refinement off, 2 x --tokens tokens per sentence)
  first_chunk_s          time from request to the first streamed chunk of one sentence
                         (null for upstream: its first audio comes when the sentence ends)
  peak_rss_mb            the process's peak resident memory
  peak_gpu_mb            on a GPU: the most memory PyTorch allocated there while timing
  floor_ms_per_step      our modes: the 20 layers' Linear calls alone (the same weights, one
                         token's input, nothing else), per step: the matmul-only floor
  floor_tokens_per_s     1000 / floor_ms_per_step; floor_reached_pct = tokens_per_s_b1 as a
                         percentage of it (upstream runs the fp32 weights: compare jit-fp32's)
Random weights rarely end a sentence, so lengths are forced; the output is noise.

    python bench/decode.py [--model DIR] [--tokens N] [--modes jit-fp32,jit-int8,...] [--quick]
                           [--device auto|cpu|cuda]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model, child_json
from bench.support.process import peak_rss_mb
from bench.support.results import add_save_argument, emit

SENTENCE = "今天天气很好，我们一起去公园散步吧。"
PARAGRAPH = (
    "今天天气很好，我们一起去公园散步吧。公园里有很多人在跑步和打太极。"
    "我们在湖边坐了一会儿，看着水里的鱼。太阳下山以后我们才回家。"
)
ALL_MODES = ["jit-fp32", "eager-fp32", "jit-bf16", "jit-int8", "ort-int8"]
QUICK_MODES = ["jit-int8", "ort-int8"]  # what ships on a CPU, and the step on ONNX Runtime
# On a GPU "jit" is our loop replaying CUDA graphs; "eager" the same loop without them.
CUDA_MODES = ["jit-fp32", "jit-bf16", "jit-fp16", "eager-fp16"]
# What the step's matrices are, by precision: fp32/bf16 Linear, int8 RowScaledLinear
# (decode/int8_rows.py), or PyTorch's dynamic int8 (the recipes bench/int8_speed.py compares).
LINEARS = ("Linear", "RowScaledLinear", "DynamicQuantizedLinear")
METRICS = [
    "tokens_per_s_b1",
    "tokens_per_s_b4",
    "rtf_paragraph",
    "first_chunk_s",
    "peak_rss_mb",
    "peak_gpu_mb",
]


def _timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _forced_upstream(synth, texts, tokens):
    import ChatTTS

    params = ChatTTS.Chat.InferCodeParams(
        prompt="[speed_5]",
        spk_emb=synth.speaker_for_seed(1),
        max_new_token=tokens,
        min_new_token=tokens,
        show_tqdm=False,
        manual_seed=1,
    )
    return lambda: synth.chat.infer(
        list(texts), skip_refine_text=True, split_text=False, params_infer_code=params
    )


def _forced_ours(synth, texts, tokens):
    from app.core.request import SamplingParams, SynthesisRequest
    from app.decode.batch import Row
    from app.decode.passes import PassParams

    s = SamplingParams()  # ChatTTS's defaults, as a request would carry them
    params = PassParams(
        s.temperature, s.top_p, s.top_k, s.repetition_penalty, tokens, min_new_tokens=tokens
    )
    speaker = synth.speaker_for_seed(1)
    request = SynthesisRequest("".join(texts), seed=1)
    rows = [Row(text, i, request, speaker, None, 0) for i, text in enumerate(texts)]
    return lambda: list(synth.speech.speak(rows, "[speed_5]", params))


def floor_layers(loop) -> list:
    """The step's matrices the floor multiplies with."""
    linears = [
        m
        for _name, m in loop._stack.named_modules()
        if getattr(m, "original_name", type(m).__name__) in LINEARS
    ]
    if not linears:  # a new kind of layer: a floor of nothing would read as 0 ms
        raise RuntimeError("no Linear layers found in the decode step")
    return linears


def _ort_floor(loop) -> float:
    """Milliseconds per step of the ONNX Runtime step's projections alone on one token (random
    matrices of the loop's shapes: their values do not change the time; 8-bit blocks as its
    int8, or fp32)."""
    import torch

    from app.decode.precision import Precision
    from bench.support.ort_step import floor_ms

    width, inter = loop.hidden_size, loop.intermediate_size
    shapes = [(3 * width, width), (width, width), (2 * inter, width), (width, inter)]
    matrices = [[torch.randn(*shape) for shape in shapes] for _ in range(loop.layers)]
    return floor_ms(matrices, None if loop.precision is Precision.FP32 else 8)


def _matmul_floor(loop, repeats: int = 20) -> float:
    """Milliseconds per step of only the stack's Linear calls on one token's input (int8: the
    row-scaled int8 matrices, each call with its own row scaling)."""
    import torch

    linears = floor_layers(loop)
    inputs = [
        torch.randn(
            1,
            1,
            m.in_features if hasattr(m, "in_features") else loop.hidden_size,
            dtype=loop.dtype,
            device=loop.device,
        )
        for m in linears
    ]
    with torch.inference_mode():
        for _ in range(3):
            for m, x in zip(linears, inputs):
                m(x)
        started = time.perf_counter()
        for _ in range(repeats):
            for m, x in zip(linears, inputs):
                m(x)
        if loop.device.type == "cuda":
            torch.cuda.synchronize()
    return (time.perf_counter() - started) * 1000 / repeats


def run_mode(mode: str, model: str, tokens: int, device: str) -> dict:
    from app.core.request import SamplingParams, SynthesisRequest
    from app.synthesis.synthesizer import Synthesizer

    decode, _, precision = mode.partition("-")
    synth = Synthesizer(model, device=device, decode=decode, precision=precision or "auto")
    synth.load(verify=False)
    forced = _forced_upstream if decode == "upstream" else _forced_ours

    # Forced lengths here too: with random weights a sentence ends at a random step, and
    # upstream pads every sentence of a batch to the longest (that padding is audible).
    def paragraph_request(n):
        return SynthesisRequest(
            PARAGRAPH,
            refine_text=False,
            voice_lock=False,
            sampling=SamplingParams(max_new_tokens=n, min_new_tokens=n),
        )

    # Warm-up, the same for every mode and of the very shapes timed below: first runs of a
    # shape are slower (TorchScript's profiling runs, graph captures, allocator growth); a user
    # pays them once per start, not per sentence.
    forced(synth, [SENTENCE], tokens)()
    forced(synth, [SENTENCE] * 4, tokens)()
    synth.run(paragraph_request(2 * tokens))
    gpu = synth.device.device.startswith("cuda")
    if gpu:
        import torch

        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    b1 = _timed(forced(synth, [SENTENCE], tokens))
    b4 = _timed(forced(synth, [SENTENCE] * 4, tokens))
    paragraph = synth.run(paragraph_request(2 * tokens))
    first_chunk = None
    if decode != "upstream":
        started = time.perf_counter()
        for _chunk in synth.synthesize(
            SynthesisRequest(
                SENTENCE, refine_text=False, sampling=SamplingParams(max_new_tokens=2 * tokens)
            )
        ):
            first_chunk = round(time.perf_counter() - started, 3)
            synth.cancel()
            break
    peak_gpu_mb = None
    if gpu:
        peak_gpu_mb = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    floor = {}
    peak_rss = peak_rss_mb()  # before the ORT floor's own matrices
    if synth.loop is not None:
        floor_ms = _ort_floor(synth.loop) if synth.loop._ort else _matmul_floor(synth.loop)
        assert floor_ms > 0
        floor = {
            "floor_ms_per_step": round(floor_ms, 2),
            "floor_tokens_per_s": round(1000 / floor_ms, 1),
            "floor_reached_pct": round(100 * tokens / b1 / (1000 / floor_ms), 1),
        }
    return {
        **floor,
        "peak_gpu_mb": peak_gpu_mb,
        "tokens_per_s_b1": round(tokens / b1, 2),
        "tokens_per_s_b4": round(4 * tokens / b4, 2),
        "rtf_paragraph": round(paragraph.realtime_factor, 3),
        "first_chunk_s": first_chunk,
        "peak_rss_mb": peak_rss,
        "decode": synth.decode_label,
        "device": synth.device.device,
        "load_s": round(synth.load_seconds, 2),
    }


def _child(mode: str, model: str, tokens: int, device: str) -> dict:
    return child_json(__file__, mode, "--model", model, "--tokens", str(tokens), "--device", device)


def _ratios(mode: dict, upstream: dict) -> dict:
    ratios = {}
    for key in ("tokens_per_s_b1", "tokens_per_s_b4"):
        if mode.get(key) and upstream.get(key):
            ratios[key] = round(mode[key] / upstream[key], 2)
    if mode.get("rtf_paragraph") and upstream.get("rtf_paragraph"):
        ratios["rtf_paragraph"] = round(
            upstream["rtf_paragraph"] / mode["rtf_paragraph"], 2
        )  # >1: faster
    return ratios


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 64; --quick 8)")
    p.add_argument("--modes", help="comma-separated, from " + ",".join(ALL_MODES))
    p.add_argument(
        "--quick", action="store_true", help="tiny model, fewer tokens and modes (smoke test)"
    )
    p.add_argument(
        "--device",
        choices=["auto", "cpu", "cuda"],
        default="auto",
        help="where to run (default: the GPU when PyTorch sees one); on cuda the default "
        "modes are fp32, bf16 and fp16",
    )
    add_save_argument(p)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    tokens = args.tokens or (8 if args.quick else 64)
    if args.child:
        from app.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(json.dumps(run_mode(args.child, args.model, tokens, args.device)))
        return 0

    if args.device == "auto":
        import torch

        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    model, size = bench_model(args.model, args.quick)
    default = CUDA_MODES if args.device == "cuda" else (QUICK_MODES if args.quick else ALL_MODES)
    modes = args.modes.split(",") if args.modes else default
    upstream = _child("upstream", str(model), tokens, args.device)
    results = {m: _child(m, str(model), tokens, args.device) for m in modes}
    import torch

    report = {
        "device": args.device if args.device == "cpu" else torch.cuda.get_device_name(0),
        "cpu_threads": torch.get_num_threads(),
        "model": f"random weights, {size} size",
        "tokens_per_sentence": tokens,
        "upstream": upstream,
        "modes": results,
        "speedup_vs_upstream": {m: _ratios(r, upstream) for m, r in results.items()},
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
