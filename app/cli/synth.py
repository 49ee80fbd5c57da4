"""`chattts-studio synth TEXT -o OUT.wav`: speak a text into a WAV file.

Every cheap check (text, input file, output path, model files) runs before ChatTTS is
imported, so a mistake is reported in a moment rather than after a ten-second import.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.cli.arguments import number, read_input_text
from app.core import DEVICE_CHOICES as DEVICES
from app.core import (
    SEED_MAX,
    InputTextError,
    OutputError,
    SamplingParams,
    SynthesisCancelled,
    SynthesisRequest,
)
from app.decode import MODE_CHOICES as MODES
from app.decode import PRECISION_CHOICES as PRECISIONS
from app.decode import DecodeMode, running_note
from app.i18n import _

# The defaults live in one place, the request types the window uses too.
SAMPLING = SamplingParams()
REQUEST = SynthesisRequest("")
AUDIO_TOKENS_PER_SECOND = 24_000 / 512  # ChatTTS: 24 kHz, one token per 512 samples


def add_parser(sub) -> None:
    s = sub.add_parser(
        "synth",
        help="speak a text into a WAV file",
        description="Speak TEXT (or the text of --file) into a 24 kHz mono WAV file.",
    )
    s.add_argument("text", nargs="?", help="the text to speak (or use --file)")
    s.add_argument("-o", "--output", required=True, metavar="OUT.wav", help="the WAV file to write")
    s.add_argument(
        "--file", metavar="IN.txt", help="read the text from this file ('-' for standard input)"
    )
    s.add_argument(
        "--model",
        metavar="DIR",
        help="model folder (default: CHATTTS_STUDIO_MODEL_DIR, "
        "else the folder chosen in the window; `models status` shows which)",
    )
    s.add_argument(
        "--seed",
        type=number("--seed", 0, SEED_MAX, integer=True),
        default=REQUEST.seed,
        help=f"voice and sampling seed, 0 to {SEED_MAX} (default {REQUEST.seed})",
    )
    s.add_argument("--speaker", metavar="STR", help="a speaker string; overrides the seed's voice")
    s.add_argument("--device", choices=DEVICES, default="auto", help="where to run (default auto)")
    s.add_argument(
        "--speed",
        type=number("--speed", 0, 9, integer=True),
        default=REQUEST.speed,
        metavar="0-9",
        help=f"speaking speed (default {REQUEST.speed})",
    )
    s.add_argument(
        "--temperature",
        type=number("--temperature", 0, low_open=True),
        default=SAMPLING.temperature,
        help=f"sampling temperature, above 0 (default {SAMPLING.temperature})",
    )
    s.add_argument(
        "--top-p",
        type=number("--top-p", 0, 1, low_open=True),
        default=SAMPLING.top_p,
        help=f"top-P sampling, above 0 and at most 1 (default {SAMPLING.top_p})",
    )
    s.add_argument(
        "--top-k",
        type=number("--top-k", 1, integer=True),
        default=SAMPLING.top_k,
        help=f"top-K sampling, at least 1 (default {SAMPLING.top_k})",
    )
    s.add_argument(
        "--max-tokens",
        type=number("--max-tokens", 1, integer=True),
        default=SAMPLING.max_new_tokens,
        help=f"most audio tokens per sentence (default {SAMPLING.max_new_tokens}, about "
        f"{SAMPLING.max_new_tokens / AUDIO_TOKENS_PER_SECOND:.0f} s)",
    )
    s.add_argument(
        "--no-refine",
        action="store_true",
        help="skip the text-refinement pass (faster; fewer natural pauses)",
    )
    s.add_argument(
        "--no-voice-lock",
        action="store_true",
        help="do not reuse the first sentence's voice for the rest of the text",
    )
    s.add_argument(
        "--decode",
        choices=MODES,
        default=DecodeMode.JIT.value,
        help="decode loop: jit (ours, compiled; default), eager (ours, not compiled), "
        "ort (ours, its step on ONNX Runtime; CPU, fp32 or int8), upstream (ChatTTS's own)",
    )
    s.add_argument(
        "--precision",
        choices=PRECISIONS,
        default="auto",
        help="number format of the decode step: auto (int8 on a CPU, bf16/fp16 on a GPU); "
        "fp32 is exact and several times slower on a CPU; bf16 on a CPU is experimental",
    )
    s.add_argument("--json", action="store_true", help="print the result as JSON")
    s.set_defaults(func=run)


def _request(args, text: str) -> SynthesisRequest:
    return SynthesisRequest(
        text=text,
        seed=args.seed,
        speaker=args.speaker,
        refine_text=not args.no_refine,
        speed=args.speed,
        voice_lock=not args.no_voice_lock,
        sampling=SamplingParams(
            temperature=args.temperature,
            top_p=args.top_p,
            top_k=args.top_k,
            max_new_tokens=args.max_tokens,
        ),
    )


def run(args) -> int:
    from app.audio import check_output_path, write_wav
    from app.model import ModelStore
    from app.text import check_speakable, check_text

    text = check_speakable(check_text(read_input_text(args.text, args.file)))
    output = check_output_path(args.output)
    if args.file not in (None, "-") and Path(args.file).expanduser().resolve() == output.resolve():
        raise OutputError(
            _(
                "The output {output} is the input file {input}, and writing it would "
                "replace your text with audio; choose another output name."
            ).format(output=args.output, input=args.file)
        )
    store = ModelStore(args.model)
    store.require_present()
    request = _request(args, text)

    from app.cli.ctrl_c import ctrl_c_cancels
    from app.synthesis import Synthesizer

    # A file gets the whole-sentence vocoder: streaming only helps when someone is listening.
    synth = Synthesizer(
        store.root, device=args.device, decode=args.decode, precision=args.precision, stream=False
    )
    synth.load()
    try:
        with ctrl_c_cancels(synth):
            result = synth.run(request)
    except (KeyboardInterrupt, SynthesisCancelled):
        synth.cancel()
        raise SynthesisCancelled(_("Stopped; no file was written.")) from None
    if result.duration == 0:
        raise InputTextError(
            _("The model produced no audio for this text; try other wording or another seed.")
        )
    write_wav(output, result.audio, result.sample_rate)
    _say(args, synth, store, result, output)
    return 0


def _say(args, synth, store, result, output: Path) -> None:
    warnings = synth.notes + result.warnings
    for warning in warnings:
        print(_("Note: {message}").format(message=warning), file=sys.stderr)
    running = running_note(synth.precision)
    if running:
        print(_("Note: {message}").format(message=running), file=sys.stderr)
    noise = not synth.model_kind.makes_speech
    if noise:
        print(
            _(
                "Note: {model} is a random-weight test model; {file} holds noise, not speech."
            ).format(model=store.root, file=output.name),
            file=sys.stderr,
        )
    if args.json:
        print(
            json.dumps(
                {
                    "output": str(output),
                    "duration_s": round(result.duration, 3),
                    "sample_rate": result.sample_rate,
                    "channels": 1,
                    "device": result.device,
                    "decode": result.decode,
                    "load_s": round(synth.load_seconds, 3),
                    "synth_s": round(result.synth_seconds, 3),
                    "rtf": round(result.realtime_factor, 3) if result.realtime_factor else None,
                    "segments": result.segments,
                    "seed": result.seed,
                    "speaker": result.speaker,
                    "model": str(store.root),
                    "model_kind": store.kind,
                    "test_model": noise,
                    "warnings": warnings,
                },
                ensure_ascii=False,
            )
        )
    else:
        print(
            _(
                "Wrote {file}: {duration} s of audio in {seconds} s on {device} "
                "(model loaded in {load} s)."
            ).format(
                file=output,
                duration=f"{result.duration:.1f}",
                seconds=f"{result.synth_seconds:.1f}",
                device=result.device,
                load=f"{synth.load_seconds:.1f}",
            )
        )
