"""What streaming changes in the audio, and how soon it starts: one sentence's hidden states (a
real decode of the full-size random model, forced to --tokens audio tokens) turned into audio
whole, and streamed as the program does (and exactly, with the receptive field as lookahead and
context), against upstream ChatTTS's own streaming
(`Chat.infer(stream=True)`: every 24 tokens it decodes the whole sentence so far and sends the new
samples, after passing the first two batches) emulated on the same hidden states in the same run.

Per variant: the token count at which the first audio is sent, and the streamed audio's error
against the whole decode (max absolute sample error; signal-to-error ratio in dB over the whole
sentence and over its first 0.5 s). Random weights: the numbers say how far a stream departs from
the whole decode, not how it sounds. Prints JSON.

    python bench/stream_joins.py [--model DIR] [--tokens 96] [--seeds 1,2,3] [--quick] [--save]
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.support.model import bench_synthesizer
from bench.support.results import add_save_argument, emit

STREAM_EVERY = 4  # app/decode/speech.py: tokens between looks for a piece
UPSTREAM_BATCH, UPSTREAM_SPEED, UPSTREAM_PASS = 24, 12000, 2  # ChatTTS InferCodeParams defaults


def _snr_db(reference, streamed) -> float | None:
    import numpy as np

    error = float(np.sum((streamed - reference) ** 2))
    signal = float(np.sum(reference**2))
    return None if error == 0 else round(10 * math.log10(signal / error), 1)


def _ours(chat, hiddens, **kwargs):
    import numpy as np

    from app.decode import vocoder_stream
    from app.decode.vocoder_stream import StreamingVocoder

    vocoder, pieces, first = StreamingVocoder(chat, **kwargs), [], None
    work = {"calls": 0, "tokens": 0}
    decode = vocoder_stream.decode_batch

    def counted(chat, windows):
        work["calls"] += 1
        work["tokens"] += sum(w.shape[0] for w in windows)
        return decode(chat, windows)

    vocos = vocoder_stream.vocos_batch

    def counted_vocos(chat, mels):  # a streamed piece: its Vocos window (the mel decoder
        work["calls"] += 1  # streams layer by layer, decode/mel_stream.py)
        work["tokens"] += sum(m.shape[2] for m in mels) // 2
        return vocos(chat, mels)

    vocoder_stream.decode_batch = counted
    vocoder_stream.vocos_batch = counted_vocos
    try:
        for n in range(STREAM_EVERY, hiddens.shape[0] + 1, STREAM_EVERY):
            piece = vocoder.push(hiddens[:n])
            if piece.size and first is None:
                first = n
            pieces.append(piece)
        pieces.append(vocoder.push(hiddens, final=True))
    finally:
        vocoder_stream.decode_batch = decode
        vocoder_stream.vocos_batch = vocos
    return np.concatenate(pieces), first, work


def _upstream(chat, hiddens):
    """Chat.infer(stream=True)'s loop (ChatTTS 0.2.5 core.py) over growing prefixes of the same
    hidden states: each batch decodes the prefix whole and sends up to 12000 new samples."""
    import numpy as np

    from app.decode.vocoder_stream import decode_whole

    sent, pieces, first, batches, decoded = 0, [], None, 0, 0
    n = UPSTREAM_BATCH
    while n < hiddens.shape[0]:
        batches += 1
        decoded += n
        wav = decode_whole(chat, hiddens[:n])
        if batches > UPSTREAM_PASS:
            end = min(sent + UPSTREAM_SPEED, wav.shape[0])
            if end > sent and first is None:
                first = n
            pieces.append(wav[sent:end])
            sent = end
        n += UPSTREAM_BATCH
    wav = decode_whole(chat, hiddens)
    pieces.append(wav[sent:])
    decoded += hiddens.shape[0]
    return (
        np.concatenate(pieces),
        first or hiddens.shape[0],
        {"calls": batches + 1, "tokens": decoded},
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", help="model folder (built with random full-size weights if missing)")
    p.add_argument("--tokens", type=int, help="audio tokens (default 96; --quick 48)")
    p.add_argument("--seeds", help="comma-separated (default 1,2,3; --quick 1)")
    p.add_argument("--quick", action="store_true", help="tiny model, one seed (smoke test)")
    p.add_argument(
        "--json", action="store_true", help="JSON is the only output (kept for old commands)"
    )
    add_save_argument(p)
    args = p.parse_args(argv)
    args.tokens = args.tokens or (48 if args.quick else 96)
    args.seeds = args.seeds or ("1" if args.quick else "1,2,3")

    import numpy as np

    from app.audio.piece_grid import (
        DEFAULT_FIRST_LOOKAHEAD,
        DEFAULT_FIRST_PIECE,
        DEFAULT_LOOKAHEAD,
        DEFAULT_MIN_PIECE,
    )
    from app.decode.passes import PassParams
    from app.decode.prompts import code_prompt
    from app.decode.vocoder_stream import decode_whole, receptive_tokens

    synth, size = bench_synthesizer(args.model, args.quick)
    chat, loop = synth.parts, synth.loop
    eos = int(chat.config.gpt.num_audio_tokens) - 1
    field = receptive_tokens(chat)
    variants = {
        f"shipped (first piece {DEFAULT_FIRST_PIECE} tokens looking {DEFAULT_FIRST_LOOKAHEAD} ahead, "
        f"then {DEFAULT_LOOKAHEAD}, context {field})": {},
        f"pieces of {DEFAULT_MIN_PIECE} tokens throughout (before they grew)": dict(
            max_piece=DEFAULT_MIN_PIECE
        ),
        "first piece 2, lookahead 6 throughout": dict(lookahead=6, first_lookahead=6),
        "first piece 2, lookahead 8 throughout": dict(lookahead=8, first_lookahead=8),
        "first piece 4, lookahead 8 throughout": dict(
            lookahead=8, first_lookahead=8, first_piece=4
        ),
        "first piece 2 + 6, then lookahead 12 (before)": dict(
            lookahead=12, first_lookahead=6, first_piece=2
        ),
        "context 24": dict(context=24),
        "context 12": dict(context=12),
        "first piece 4 looking 4 ahead": dict(first_piece=4, first_lookahead=4),
        "first piece 2 looking 2 ahead": dict(first_piece=2, first_lookahead=2),
        f"exact (lookahead and context {field}, the receptive field)": dict(
            lookahead=field, context=field, first_lookahead=field
        ),
    }
    results: dict[str, dict] = {}
    half_second = 12000
    for seed in (int(s) for s in args.seeds.split(",")):
        emb, mask = code_prompt(
            chat,
            ["The quick brown fox jumps over the lazy dog near the river bank."],
            "[speed_5]",
            None,
            None,
            None,
        )
        params = PassParams(
            temperature=0.3,
            top_p=0.7,
            top_k=20,
            repetition_penalty=1.05,
            max_new_tokens=args.tokens,
            min_new_tokens=args.tokens,
        )
        generated = list(loop.generate(emb, mask, True, params, [seed], eos=eos))[-1]
        hiddens = generated.hiddens[0]
        whole = decode_whole(chat, hiddens)
        runs = {name: _ours(chat, hiddens, **kw) for name, kw in variants.items()}
        runs["upstream ChatTTS stream (emulated)"] = _upstream(chat, hiddens)
        for name, (streamed, first, work) in runs.items():
            assert streamed.shape == whole.shape, (name, streamed.shape, whole.shape)
            # Vocoder work: calls, and tokens decoded over all windows per token of the sentence
            # (streamed pieces: their Vocos windows).
            entry = results.setdefault(
                name,
                {
                    "first_audio_at_token": first,
                    "vocoder_calls": work["calls"],
                    "vocoder_tokens_per_token": round(work["tokens"] / args.tokens, 2),
                    "max_abs_error": [],
                    "snr_db": [],
                    "snr_db_first_half_second": [],
                },
            )
            entry["max_abs_error"].append(float(np.max(np.abs(streamed - whole))))
            entry["snr_db"].append(_snr_db(whole, streamed))
            entry["snr_db_first_half_second"].append(
                _snr_db(whole[:half_second], streamed[:half_second])
            )
    for entry in results.values():
        entry["max_abs_error"] = round(max(entry["max_abs_error"]), 6)
    report = {
        "model": size,
        "tokens": args.tokens,
        "receptive_field_tokens": field,
        "stream_every": STREAM_EVERY,
        "variants": results,
    }
    emit(report, args, __file__)
    return 0


if __name__ == "__main__":
    sys.exit(main())
