"""Playback without gaps: for each CPU mode, time to first sound and gaps inside sentences per
minute of audio, with adaptive buffering and, for comparison in the same run, with a player
that plays each piece as it comes (the player before buffering). Prints JSON.

Random weights make noise without pauses, so the player can wait only between sentences. The
`speech_shaped` figures replay the same pieces at the same moments with speech-shaped audio
instead (syllables, stop closures, a pause every six syllables: tests/support/speech_like.py):
when a sentence made at this pace would first be heard, and whether any wait fell outside a
pause (`waits_inside_words`, which must be 0).

`first_sound_bound_s` is the first sentence's hindsight bound: the earliest start from which it
would have played through given when its pieces really arrived. No player that keeps a sentence
whole can start sooner, and a real one, which knows only the rate measured so far and keeps a
margin for the machine slowing down (audio/buffering.py), starts later; the difference is the
price of that margin.

Each mode runs in its own process on the random-weight model with the official shapes (built
once, as bench/decode.py does). The engine speaks a paragraph (sentence lengths forced, since
random weights rarely end a sentence); the moment each piece arrives is recorded, then replayed
through the real sound output with a simulated sound card (tests/support/playback_sim.py), so
what is measured is the engine's real production pace, not this machine's sound stack.

    python bench/playback.py [--json] [--model DIR] [--tokens N] [--modes jit-fp32,...] [--quick] [--arrivals]
                             [--save]
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

PARAGRAPH = (
    "今天天气很好，我们一起去公园散步吧。公园里有很多人在跑步和打太极。"
    "我们在湖边坐了一会儿，看着水里的鱼。太阳下山以后我们才回家。"
)
CPU_MODES = ["jit-fp32", "jit-bf16", "jit-int8"]
QUICK_MODES = ["jit-int8"]  # what ships on a CPU


def run_mode(mode: str, model: str, tokens: int) -> dict:
    from app.core.request import AudioChunk, SamplingParams, SynthesisRequest
    from app.synthesis.synthesizer import Synthesizer
    from tests.support.playback_sim import (
        SAMPLE_RATE,
        Arrival,
        earliest_gapless_start,
        naive_gaps,
        play,
    )

    decode, _, precision = mode.partition("-")
    synth = Synthesizer(model, device="cpu", decode=decode, precision=precision or "auto")
    synth.load(verify=False)

    def request(n):
        return SynthesisRequest(
            PARAGRAPH,
            refine_text=False,
            voice_lock=False,
            sampling=SamplingParams(max_new_tokens=n, min_new_tokens=n),
        )

    synth.run(request(8))  # warm-up: a user pays it once per start
    arrivals, started = [], time.perf_counter()
    for item in synth.synthesize(request(tokens)):
        if isinstance(item, AudioChunk):
            n = len(item.samples) * SAMPLE_RATE // item.sample_rate
            arrivals.append(
                Arrival(
                    time.perf_counter() - started,
                    n,
                    item.index,
                    item.final,
                    vocoder_s=item.vocoder_s,
                )
            )
    made_s = arrivals[-1].at
    played = play(arrivals)
    audio_min = played.audio_seconds() / 60
    return {
        "decode": synth.decode_label,
        "audio_s": round(played.audio_seconds(), 2),
        "rtf": round(made_s / played.audio_seconds(), 3),
        "first_piece_s": round(arrivals[0].at, 3),
        "first_sound_s": round(played.first_sound_s, 3),
        "first_sound_bound_s": round(earliest_gapless_start(arrivals), 3),
        "gaps_per_min": round(played.gaps_inside_sentences() / audio_min, 2),
        "gaps_per_min_unbuffered": round(naive_gaps(arrivals) / audio_min, 2),
        "wait_s_total": round(len(played.output) / SAMPLE_RATE - played.audio_seconds(), 2),
        "speech_shaped": _speech_shaped(arrivals),
        "arrivals": [
            [round(a.at, 4), a.samples, a.segment, a.final, round(a.vocoder_s, 4)] for a in arrivals
        ],
    }


def _speech_shaped(arrivals) -> dict:
    from tests.support.playback_sim import play
    from tests.support.speech_like import inserted_silences, outside_pauses, speech_over

    shaped, sentences, pauses = speech_over(arrivals)
    played = play(shaped)
    waits = inserted_silences(played.output, sentences)
    outside = outside_pauses(waits, pauses)
    return {
        "first_sound_s": round(played.first_sound_s, 3),
        "first_sentence_made_s": round(next(a.at for a in shaped if a.final), 3),
        "waits_in_pauses": sum(1 for _, at in waits if at) - len(outside),
        "waits_inside_words": len(outside),
    }


def _child(mode: str, model: str, tokens: int) -> dict:
    return child_json(__file__, mode, "--model", model, "--tokens", str(tokens))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    p.add_argument(
        "--model", help="model folder (built with random full-size weights if empty or missing)"
    )
    p.add_argument(
        "--tokens", type=int, help="audio tokens per sentence (default 96, about 2 s; --quick 24)"
    )
    p.add_argument("--modes", help="comma-separated, from " + ",".join(CPU_MODES))
    p.add_argument("--quick", action="store_true", help="tiny model, jit-int8 only (smoke test)")
    add_save_argument(p)
    p.add_argument(
        "--arrivals",
        action="store_true",
        help="also print every piece: [s after the request, samples, sentence, final]",
    )
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    tokens = args.tokens or (24 if args.quick else 96)
    if args.child:
        from app.synthesis.chattts_model import quiet_libraries

        quiet_libraries()
        print(json.dumps(run_mode(args.child, args.model, tokens)))
        return 0
    model, size = bench_model(args.model, args.quick)
    modes = args.modes.split(",") if args.modes else (QUICK_MODES if args.quick else CPU_MODES)
    report = {
        "model": f"random weights, {size} size",
        "tokens_per_sentence": tokens,
        "sentences": 4,
        "modes": {m: _child(m, str(model), tokens) for m in modes},
    }
    for result in report["modes"].values():
        if not args.arrivals:
            result.pop("arrivals", None)
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
