"""Narration speed and resume cost, in one run. Prints JSON.

1. A chapter of --sentences sentences on the random-weight model with the official shapes
   (built once into --model if that folder is empty): audio seconds per wall second for our
   render (a project, the Renderer over one Engine: background priority, sentences batched,
   the chapter's voice locked from its first sentence) against upstream ChatTTS's `Chat.infer`
   called sentence by sentence, in the same process on the same model. Random weights rarely
   end a sentence, so every sentence is forced to --tokens audio tokens (min = max) in both;
   refinement off in both; the audio is noise. Both warm up on the same shapes first.
2. Resume cost: a --resume-sentences project (100 sentences a chapter) with half its
   sentences rendered (1 s takes), then the time to reopen it (Project.open: rows and take
   headers checked) and to continue (the Renderer's plan until it hands the engine its first
   sentence). The engine is a stand-in here, so the model's load time (the same for any
   command) is not counted; the median of --repeats runs.

    python bench/narrate.py [--model DIR] [--sentences 20] [--tokens 48] [--resume-sentences 2000]
                            [--repeats 3] [--quick] [--device auto|cpu|cuda] [--save]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_model, child_json
from bench.support.results import add_save_argument, emit

SENTENCES = [
    "The morning was cold, and the river ran fast under the old bridge.",
    "今天天气很好，我们一起去公园散步吧。",
    "She opened the letter slowly and read it twice before she spoke.",
    "公园里有很多人在跑步和打太极。",
    "Nobody in the village remembered a winter quite as long as this one.",
]


def _document(chapters: int, per_chapter: int):
    from app.narration.source import SourceChapter, SourceDocument, SourceSentence

    return SourceDocument(
        "bench",
        "text",
        tuple(
            SourceChapter(
                f"Chapter {c + 1}",
                tuple(
                    SourceSentence(f"{SENTENCES[(c + i) % len(SENTENCES)]}")
                    for i in range(per_chapter)
                ),
            )
            for c in range(chapters)
        ),
    )


def _render_ours(
    engine, folder: Path, name: str, sentences: int, tokens: int
) -> tuple[float, float]:
    from app.core.request import SamplingParams
    from app.narration.project import Project
    from app.narration.render import Renderer

    project = Project.create(folder / f"{name}.ctsproj", _document(1, sentences), seed=1)
    sampling = SamplingParams(max_new_tokens=tokens, min_new_tokens=tokens)
    started = time.perf_counter()
    outcome = Renderer(project, engine, refine_text=False, sampling=sampling).render()
    wall = time.perf_counter() - started
    assert outcome.state == "finished" and outcome.remaining == 0, outcome
    audio = sum(s.duration or 0 for s in project.sentences())
    return audio, wall


def _render_upstream(synth, sentences: int, tokens: int) -> tuple[float, float]:
    import ChatTTS

    texts = [SENTENCES[i % len(SENTENCES)] for i in range(sentences)]
    audio = 0.0
    started = time.perf_counter()
    for i, text in enumerate(texts):
        params = ChatTTS.Chat.InferCodeParams(
            prompt="[speed_5]",
            spk_emb=synth.speaker_for_seed(1),
            max_new_token=tokens,
            min_new_token=tokens,
            show_tqdm=False,
            manual_seed=i + 1,
        )
        wavs = synth.chat.infer(
            [text], skip_refine_text=True, split_text=False, params_infer_code=params
        )
        audio += sum(len(w.reshape(-1)) for w in wavs) / 24_000
    return audio, time.perf_counter() - started


def run_child(kind: str, model: Path, sentences: int, tokens: int, device: str) -> dict:
    """One side of the comparison, in this process: "ours" or "upstream"."""
    from app.synthesis.engine import Engine
    from app.synthesis.synthesizer import Synthesizer

    # Our loop takes over ChatTTS's GPT layers, so upstream runs from its own load.
    synth = Synthesizer(
        model, device=device, decode="upstream" if kind == "upstream" else "jit", stream=False
    )
    if kind == "upstream":
        synth.load(verify=False)
        _render_upstream(synth, 2, tokens)
        audio, wall = _render_upstream(synth, sentences, tokens)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            engine = Engine.loading(
                synth, verify=False
            )  # as `narrate` loads it: on the engine's thread
            try:
                _render_ours(engine, Path(tmp), "warm-up", min(sentences, 9), tokens)
                audio, wall = _render_ours(engine, Path(tmp), "chapter", sentences, tokens)
            finally:
                engine.close(timeout=60)
    return {
        "audio_s": round(audio, 2),
        "wall_s": round(wall, 2),
        "audio_s_per_wall_s": round(audio / wall, 3),
        "decode": synth.decode_label,
        "device": synth.device.device,
    }


def chapter_speed(model: Path, sentences: int, tokens: int, device: str) -> dict:
    def child(kind: str) -> dict:
        return child_json(
            __file__,
            kind,
            "--model",
            str(model),
            "--sentences",
            str(sentences),
            "--tokens",
            str(tokens),
            "--device",
            device,
        )

    ours, upstream = child("ours"), child("upstream")
    speedup = (
        round(ours["audio_s_per_wall_s"] / upstream["audio_s_per_wall_s"], 2)
        if "error" not in ours and "error" not in upstream
        else None
    )
    return {
        "sentences": sentences,
        "tokens_per_sentence": tokens,
        "ours": ours,
        "upstream_sentence_by_sentence": upstream,
        "speedup": speedup,
    }


class _StandInJob:
    def __init__(self):
        self.ended = threading.Event()

    def cancel(self):
        self.ended.set()

    def result(self):
        from app.core.errors import SynthesisCancelled

        self.ended.wait()
        raise SynthesisCancelled("cancelled")


class _StandInSynth:
    def speaker_for_seed(self, seed):
        return "speaker"

    def reference_from_audio(self, audio, text):
        return "codes", text


class _StandInEngine:
    """Takes requests like the Engine and says when the first one came; decodes nothing."""

    def __init__(self):
        self.synthesizer = _StandInSynth()
        self.first = threading.Event()
        self.first_at = None

    def call(self, fn):
        return fn()

    def submit(self, request, priority):
        if self.first_at is None:
            self.first_at = time.perf_counter()
            self.first.set()
        return _StandInJob()


def _half_done_project(path: Path, sentences: int):
    import numpy as np

    from app.narration.project import Project

    chapters = max(1, sentences // 100)
    project = Project.create(path, _document(chapters, sentences // chapters), seed=1)
    rng = np.random.default_rng(0)
    t = np.arange(24_000) / 24_000
    take = (0.3 * np.sin(2 * np.pi * 220 * t) + 0.01 * rng.standard_normal(24_000)).astype(
        np.float32
    )
    done_chapters = set()
    for sentence in project.sentences()[: sentences // 2]:
        first = sentence.chapter_id not in done_chapters
        done_chapters.add(sentence.chapter_id)
        project.add_take(
            sentence.id,
            take,
            sentence.seed,
            worker="bench",
            chapter_reference=("codes", sentence.text, None) if first else None,
        )
    return project


def resume_cost(sentences: int, repeats: int) -> dict:
    from app.narration.project import Project
    from app.narration.render import Renderer

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "resume.ctsproj"
        _half_done_project(path, sentences)
        opens, continues = [], []
        for _ in range(repeats):
            started = time.perf_counter()
            project = Project.open(path)
            opened = time.perf_counter()
            engine = _StandInEngine()
            renderer = Renderer(project, engine)
            worker = threading.Thread(target=renderer.render)
            worker.start()
            assert engine.first.wait(600), "the renderer never asked for a sentence"
            renderer.cancel()
            worker.join(600)
            opens.append(opened - started)
            continues.append(engine.first_at - started)
        pending = len(project.pending())
        size = path.stat().st_size
    return {
        "sentences": sentences,
        "rendered": sentences - pending,
        "project_mb": round(size / 2**20, 1),
        "open_s": round(statistics.median(opens), 3),
        "open_and_continue_s": round(statistics.median(continues), 3),
        "repeats": repeats,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument(
        "--sentences", type=int, help="sentences in the timed chapter (default 20; --quick 3)"
    )
    p.add_argument("--tokens", type=int, help="audio tokens per sentence (default 48; --quick 8)")
    p.add_argument(
        "--resume-sentences",
        type=int,
        help="sentences in the resumed project (default 2000; --quick 200)",
    )
    p.add_argument(
        "--repeats", type=int, help="resume runs, the median is reported (default 3; --quick 1)"
    )
    p.add_argument("--quick", action="store_true", help="tiny model, a short chapter (smoke test)")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    p.add_argument("--child", choices=["ours", "upstream"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    from app.synthesis.chattts_model import quiet_libraries

    quiet_libraries()
    tokens = args.tokens or (8 if args.quick else 48)
    args.sentences = args.sentences or (3 if args.quick else 20)
    args.resume_sentences = args.resume_sentences or (200 if args.quick else 2000)
    args.repeats = args.repeats or (1 if args.quick else 3)
    if args.child:
        print(
            json.dumps(run_child(args.child, Path(args.model), args.sentences, tokens, args.device))
        )
        return 0
    model, size = bench_model(args.model, args.quick)
    import torch

    report = {
        "model": f"random weights, {size} size",
        "cpu_threads": torch.get_num_threads(),
        "chapter": chapter_speed(model, args.sentences, tokens, args.device),
        "resume": resume_cost(args.resume_sentences, args.repeats),
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
