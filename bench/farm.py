"""The render farm's scaling on this machine, in one run. Prints JSON.

The same chapter (--sentences sentences, each forced to --tokens audio tokens, refinement off,
fp32 unless --precision) rendered by:
  - one in-process engine (the ordinary `narrate`), the baseline;
  - 1 and 2 local worker processes (threads shared fairly: cores / workers each), each keeping
    up to --worker-in-flight sentences at once on its engine (which batches them);
  - 2 Ray actors on a local cluster (ray.init(num_cpus=cores)), if Ray is installed;
and upstream ChatTTS's `Chat.infer` sentence by sentence in this process, for reference.
For each: wall seconds from the first submit to the last take (model loads are reported apart,
since a long book pays them once), audio seconds per wall second, the scaling efficiency
(speed / (workers x one worker's speed)), and the overhead per sentence of Ray against the local
pool (difference of wall time per sentence at the same worker count). The audio is noise.

    python bench/farm.py [--model DIR] [--sentences 12] [--tokens 48] [--worker-in-flight 4]
                         [--quick] [--json]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.narrate import _document
from bench.support.model import bench_model
from bench.support.results import add_save_argument, emit

RENDER_IN_FLIGHT = 4  # sentences the render keeps at its engine, in process or at the farm


def _render(engine, folder: Path, name: str, sentences: int, tokens: int) -> dict:
    from app.core.request import SamplingParams
    from app.narration.project import Project
    from app.narration.render import Renderer

    project = Project.create(folder / f"{name}.ctsproj", _document(1, sentences), seed=1)
    sampling = SamplingParams(max_new_tokens=tokens, min_new_tokens=tokens)
    started = time.perf_counter()
    outcome = Renderer(
        project, engine, in_flight=RENDER_IN_FLIGHT, refine_text=False, sampling=sampling
    ).render()
    wall = time.perf_counter() - started
    audio = sum(s.duration or 0 for s in project.sentences())
    assert outcome.state == "finished" and outcome.done == sentences, outcome
    return {
        "wall_s": round(wall, 2),
        "audio_s": round(audio, 2),
        "audio_s_per_wall_s": round(audio / wall, 3),
        "wall_s_per_sentence": round(wall / sentences, 3),
    }


def _farm_case(make, folder: Path, name: str, sentences: int, tokens: int) -> dict:
    started = time.perf_counter()
    engine = make()
    try:
        engine.farm.wait_ready()
        ready = time.perf_counter() - started
        _render(engine, folder, f"{name}-warm", 2, tokens)  # every worker's first shapes
        row = _render(engine, folder, name, sentences, tokens)
    finally:
        engine.close()
    return {"workers": engine.workers, "load_s": round(ready, 2), **row}


def _in_process(model: Path, folder: Path, sentences: int, tokens: int, precision: str) -> dict:
    from app.synthesis.engine import Engine
    from app.synthesis.synthesizer import Synthesizer

    started = time.perf_counter()
    synth = Synthesizer(model, device="cpu", precision=precision, stream=False)
    engine = Engine.loading(synth, verify=False)  # as `narrate` loads it: on the engine's thread
    load = time.perf_counter() - started
    try:
        _render(engine, folder, "warm", 2, tokens)
        row = _render(engine, folder, "in-process", sentences, tokens)
    finally:
        engine.close(timeout=60)
    return {"workers": 1, "load_s": round(load, 2), "decode": synth.decode_label, **row}


def _upstream(model: Path, sentences: int, tokens: int) -> dict:
    from app.synthesis.synthesizer import Synthesizer
    from bench.narrate import _render_upstream

    synth = Synthesizer(model, device="cpu", decode="upstream", stream=False)
    synth.load(verify=False)
    _render_upstream(synth, 2, tokens)
    audio, wall = _render_upstream(synth, sentences, tokens)
    return {
        "wall_s": round(wall, 2),
        "audio_s": round(audio, 2),
        "audio_s_per_wall_s": round(audio / wall, 3),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument("--sentences", type=int, help="sentences in the chapter (default 12; --quick 2)")
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 48; --quick 8)")
    p.add_argument("--precision", default="fp32", choices=["fp32", "int8", "bf16"])
    p.add_argument(
        "--worker-in-flight",
        type=int,
        help="sentences a worker holds at once (default: the workers' own, 4; 1: one at a time)",
    )
    p.add_argument("--no-ray", action="store_true", help="leave out the Ray case")
    p.add_argument(
        "--quick", action="store_true", help="tiny model, 2 short sentences, no Ray (smoke test)"
    )
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    from app.narration.farm.local import local_farm
    from app.narration.farm.worker import IN_FLIGHT, WorkerSpec
    from app.synthesis.chattts_model import quiet_libraries

    quiet_libraries()
    tokens = args.tokens or (8 if args.quick else 48)
    args.sentences = args.sentences or (2 if args.quick else 12)
    model, size = bench_model(args.model, args.quick)
    cores = os.cpu_count() or 1
    in_flight = max(1, args.worker_in_flight or IN_FLIGHT)

    def specs(n, prefix):
        return [
            WorkerSpec(
                f"{prefix}{i}",
                str(model),
                "cpu",
                args.precision,
                threads=max(1, cores // n),
                in_flight=in_flight,
            )
            for i in range(n)
        ]

    report = {
        "model": f"random weights, {size} size",
        "cores": cores,
        "sentences": args.sentences,
        "tokens_per_sentence": tokens,
        "precision": args.precision,
        "render_in_flight": RENDER_IN_FLIGHT,
        "worker_in_flight": in_flight,
    }
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report["in_process"] = _in_process(model, folder, args.sentences, tokens, args.precision)
        report["local_1"] = _farm_case(
            lambda: local_farm(specs(1, "cpu")), folder, "local1", args.sentences, tokens
        )
        report["local_2"] = _farm_case(
            lambda: local_farm(specs(2, "cpu")), folder, "local2", args.sentences, tokens
        )
        if args.quick and not args.no_ray:
            report["ray_2"] = {"skipped": "quick mode: starting Ray costs more than the run"}
        elif not args.no_ray:
            try:
                import ray

                from app.narration.farm.ray_pool import ray_farm

                ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
                try:
                    report["ray_2"] = _farm_case(
                        lambda: ray_farm("local", specs(2, "ray")),
                        folder,
                        "ray2",
                        args.sentences,
                        tokens,
                    )
                finally:
                    ray.shutdown()
            except ImportError:
                report["ray_2"] = {
                    "error": 'Ray is not installed (pip install "chattts-studio[farm]")'
                }
        report["upstream_sentence_by_sentence"] = _upstream(model, args.sentences, tokens)
    one = report["local_1"]["audio_s_per_wall_s"]
    for key in ("local_2", "ray_2"):
        row = report.get(key, {})
        if "audio_s_per_wall_s" in row:
            row["scaling_efficiency"] = round(row["audio_s_per_wall_s"] / (row["workers"] * one), 3)
    if "wall_s_per_sentence" in report.get("ray_2", {}):
        report["ray_overhead_s_per_sentence"] = round(
            report["ray_2"]["wall_s_per_sentence"] - report["local_2"]["wall_s_per_sentence"], 3
        )
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
