"""The streamed vocoder's time for one sentence: pieces as the program sends them, with the mel
decoder streamed layer by layer (what ships, decode/mel_stream.py) and with each piece decoding
its whole window (before), against upstream ChatTTS's own streaming (`Chat.infer(stream=True)`,
emulated as bench/stream_joins.py does) and one whole decode, in one process, interleaved
(this machine's speed drifts: compare within a round). Looks for a piece every 4 tokens, as
the engine does. Hidden states are random numbers: the vocoder's time does not depend on them.
Prints JSON: seconds per variant per round, and the median.

    python bench/vocoder_stream_cost.py [--model DIR] [--tokens 96,300] [--rounds 4] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stream_joins import _upstream
from bench.support.model import bench_synthesizer
from bench.support.results import add_save_argument, emit

STREAM_EVERY = 4


def _streamed(chat, hiddens, layered: bool) -> None:
    from app.decode.vocoder_stream import StreamingVocoder

    vocoder = StreamingVocoder(chat)
    if not layered:
        vocoder._mel = None
    for n in range(STREAM_EVERY, hiddens.shape[0], STREAM_EVERY):
        vocoder.push(hiddens[:n])
    vocoder.push(hiddens, final=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (built with random full-size weights if missing)")
    p.add_argument("--tokens", help="sentence lengths (default 96,300; --quick 48)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 4; --quick 1)")
    p.add_argument("--quick", action="store_true", help="tiny model, one round (smoke test)")
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.tokens = args.tokens or ("48" if args.quick else "96,300")
    args.rounds = args.rounds or (1 if args.quick else 4)

    import torch

    from app.decode.vocoder_stream import decode_whole

    synth, size = bench_synthesizer(args.model, args.quick)
    chat = synth.parts
    variants = {
        "layered (shipped)": lambda h: _streamed(chat, h, True),
        "windowed (before)": lambda h: _streamed(chat, h, False),
        "upstream ChatTTS stream (emulated)": lambda h: _upstream(chat, h),
        "whole decode (no streaming)": lambda h: decode_whole(chat, h),
    }
    out = {}
    for tokens in (int(t) for t in args.tokens.split(",")):
        torch.manual_seed(tokens)
        hiddens = torch.randn(tokens, chat.config.gpt.hidden_size)
        for run in variants.values():
            run(hiddens)  # first calls of these shapes
        seconds = {name: [] for name in variants}
        for _round in range(args.rounds):
            for name, run in variants.items():
                started = time.perf_counter()
                run(hiddens)
                seconds[name].append(round(time.perf_counter() - started, 3))
        out[f"{tokens} tokens"] = {
            name: {"seconds": s, "median": statistics.median(s)} for name, s in seconds.items()
        }
    report = {
        "model": f"random weights, {size} size",
        "decoder": type(chat.decoder).__name__,
        "cpu_threads": torch.get_num_threads(),
        "rounds": args.rounds,
        "results": out,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
