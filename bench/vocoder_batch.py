"""The streaming vocoder with several sentences at once: one decoder + Vocos call per window
(what the engine did before) against one call for all windows of the same length (push_all),
and upstream ChatTTS's own batched decode (`Chat._decode_to_wavs`) of the same windows, in the
same run. Prints JSON: milliseconds per batch of windows (median of --repeat) and the speed-up
of batching over one call each.

`streamed`: sentences of --stream-tokens streamed together as the engine streams them (looked
at every 4 tokens, the mel decoder layer by layer), each sentence's pieces made on its own
against all sentences' pieces in one push_all (their mel streams in one batch), with upstream's
batched decode of the whole sentences for scale.

    python bench/vocoder_batch.py [--model DIR] [--batches 1,2,4] [--tokens 16,64]
                                  [--stream-tokens 32] [--repeat 5] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_synthesizer
from bench.support.results import add_save_argument, emit


def _ms(fn, repeat: int) -> float:
    fn()  # first call: allocator and kernel selection
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return round(1000 * statistics.median(times), 1)


def _stream(chat, sentences) -> None:
    """`sentences` streamed together to their ends, looked at every 4 tokens (STREAM_EVERY)."""
    from app.decode.speech import STREAM_EVERY
    from app.decode.vocoder_stream import StreamingVocoder, push_all

    vocoders = [StreamingVocoder(chat) for _ in sentences]
    length = sentences[0].shape[0]
    for n in [*range(STREAM_EVERY, length, STREAM_EVERY), length]:
        push_all(chat, [(v, s[:n], n == length) for v, s in zip(vocoders, sentences)])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (built with random full-size weights if missing)")
    p.add_argument("--batches", help="sentences at once (default 1,2,4; --quick 1,2)")
    p.add_argument(
        "--tokens",
        help="window lengths in tokens (16: a first piece; 64: context + piece; default 16,64; "
        "--quick 16)",
    )
    p.add_argument(
        "--stream-tokens", type=int, help="tokens of a streamed sentence (default 32; --quick 16)"
    )
    p.add_argument("--repeat", type=int, help="timed calls, the median kept (default 5; --quick 1)")
    p.add_argument("--quick", action="store_true", help="tiny model, few windows (smoke test)")
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.batches = args.batches or ("1,2" if args.quick else "1,2,4")
    args.tokens = args.tokens or ("16" if args.quick else "16,64")
    args.repeat = args.repeat or (1 if args.quick else 5)
    args.stream_tokens = args.stream_tokens or (16 if args.quick else 32)

    import torch

    from app.decode.vocoder_stream import decode_batch, decode_whole
    from app.synthesis.chattts_model import StopFlag, load_chat

    synth, size = bench_synthesizer(args.model, args.quick)
    chat = synth.parts
    # ChatTTS's own vocoder path, the baseline compared against.
    upstream_chat = load_chat(
        synth.store, "cpu", synth.store.studio_config(), StopFlag(), normalizer=False
    )
    hidden = chat.config.gpt.hidden_size
    g = torch.Generator().manual_seed(0)
    rows = []
    for tokens in (int(t) for t in args.tokens.split(",")):
        for batch in (int(b) for b in args.batches.split(",")):
            windows = [torch.randn(tokens, hidden, generator=g) for _ in range(batch)]
            with torch.inference_mode():
                one_each = _ms(lambda ws=windows: [decode_whole(chat, w) for w in ws], args.repeat)
                together = _ms(lambda ws=windows: decode_batch(chat, ws), args.repeat)
                upstream = _ms(
                    lambda ws=windows: upstream_chat._decode_to_wavs([w.clone() for w in ws], True),
                    args.repeat,
                )
            rows.append(
                {
                    "tokens": tokens,
                    "batch": batch,
                    "one_call_each_ms": one_each,
                    "batched_ms": together,
                    "upstream_batched_ms": upstream,
                    "speedup": round(one_each / together, 2),
                }
            )
    streamed = []
    for batch in (int(b) for b in args.batches.split(",")):
        sentences = [torch.randn(args.stream_tokens, hidden, generator=g) for _ in range(batch)]
        with torch.inference_mode():
            one_each = _ms(lambda ss=sentences: [_stream(chat, [s]) for s in ss], args.repeat)
            together = _ms(lambda ss=sentences: _stream(chat, ss), args.repeat)
            upstream = _ms(
                lambda ss=sentences: upstream_chat._decode_to_wavs([s.clone() for s in ss], True),
                args.repeat,
            )
        streamed.append(
            {
                "tokens": args.stream_tokens,
                "batch": batch,
                "one_sentence_at_a_time_ms": one_each,
                "together_ms": together,
                "upstream_whole_batched_ms": upstream,
                "speedup": round(one_each / together, 2),
            }
        )
    report = {
        "model": f"random weights, {size} size",
        "threads": torch.get_num_threads(),
        "repeat": args.repeat,
        "rows": rows,
        "streamed": streamed,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
