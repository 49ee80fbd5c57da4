"""Command line: `chattts-studio [synth ...]`; with no subcommand it opens the window.

Every cheap check (text, input file, output path, model files) runs before ChatTTS is
imported, so a mistake is reported in a moment rather than after a ten-second import.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from app import __version__, cli_models, cli_window
from app.cli_args import Parser, number
from app.engine.decode import MODES
from app.engine.decode.precision import CHOICES as PRECISIONS, EXPERIMENTAL
from app.engine.device import CHOICES
from app.engine.errors import InputTextError, OutputError, StudioError, SynthesisCancelled
from app.engine.request import DEFAULT_SEED, SEED_MAX
from app.engine.text.prepare import decode_text, read_capped, read_text_file
from app.i18n import LANGUAGES, _, set_language


def _parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chattts-studio",
        description="Turn text into speech with ChatTTS. Without a command, opens the window.",
        epilog="The window: " + cli_window.USAGE,
    )
    p.add_argument("--version", action="version", version=f"ChatTTS Studio {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="also print the log to the console")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="language of the messages (default: the system's, from LANG/LC_ALL/LC_MESSAGES "
                        "or the Windows display language)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("synth", help="speak a text into a WAV file",
                       description="Speak TEXT (or the text of --file) into a 24 kHz mono WAV file.")
    s.add_argument("text", nargs="?", help="the text to speak (or use --file)")
    s.add_argument("-o", "--output", required=True, metavar="OUT.wav", help="the WAV file to write")
    s.add_argument("--file", metavar="IN.txt", help="read the text from this file ('-' for standard input)")
    s.add_argument("--model", metavar="DIR", help="model folder (default: the user data folder, "
                   "or the CHATTTS_STUDIO_MODEL_DIR environment variable)")
    s.add_argument("--seed", type=number("--seed", 0, SEED_MAX, integer=True), default=DEFAULT_SEED,
                   help=f"voice and sampling seed, 0 to {SEED_MAX} (default {DEFAULT_SEED})")
    s.add_argument("--speaker", metavar="STR", help="a speaker string; overrides the seed's voice")
    s.add_argument("--device", choices=CHOICES, default="auto", help="where to run (default auto)")
    s.add_argument("--speed", type=number("--speed", 0, 9, integer=True), default=5, metavar="0-9",
                   help="speaking speed (default 5)")
    s.add_argument("--temperature", type=number("--temperature", 0, low_open=True), default=0.3,
                   help="sampling temperature, above 0 (default 0.3)")
    s.add_argument("--top-p", type=number("--top-p", 0, 1, low_open=True), default=0.7,
                   help="top-P sampling, above 0 and at most 1 (default 0.7)")
    s.add_argument("--top-k", type=number("--top-k", 1, integer=True), default=20,
                   help="top-K sampling, at least 1 (default 20)")
    s.add_argument("--max-tokens", type=number("--max-tokens", 1, integer=True), default=2048,
                   help="most audio tokens per sentence (default 2048, about 43 s)")
    s.add_argument("--no-refine", action="store_true",
                   help="skip the text-refinement pass (faster; fewer natural pauses)")
    s.add_argument("--no-voice-lock", action="store_true",
                   help="do not reuse the first sentence's voice for the rest of the text")
    s.add_argument("--decode", choices=MODES, default="jit",
                   help="decode loop: jit (ours, compiled; default), eager (ours, not compiled), "
                        "upstream (ChatTTS's own)")
    s.add_argument("--precision", choices=PRECISIONS, default="auto",
                   help="number format of the decode step: auto (fp32 on a CPU, bf16/fp16 on a GPU); "
                        "int8 and bf16 on a CPU are faster and experimental")
    s.add_argument("--json", action="store_true", help="print the result as JSON")

    n = sub.add_parser("normalize", help="show exactly what will be spoken",
                       description="Print the text as ChatTTS will get it: your pronunciation "
                                   "dictionary, numbers/dates/units in words, one segment per line.")
    n.add_argument("text", nargs="?", help="the text (or use --file)")
    n.add_argument("--file", metavar="IN.txt", help="read the text from this file ('-' for standard input)")
    n.add_argument("--json", action="store_true", help="print segments and warnings as JSON")

    cli_models.add_parser(sub)

    t = sub.add_parser("self-test", help="check that this installation works end to end",
                       description="Import PyTorch, check resources, build the window offscreen and "
                                   "speak a sentence with a tiny random-weight model. Exit 1 on failure.")
    t.add_argument("--json", metavar="FILE", help="also write the report as JSON to FILE")

    d = sub.add_parser("doctor", help="check drivers, CUDA, PyTorch and Windows settings",
                       description="Check this machine (or a saved snapshot) for what stops ChatTTS "
                                   "from using the GPU or running at all. Exit code 1 when a check fails.")
    d.add_argument("--json", action="store_true", help="print the report as JSON")
    d.add_argument("--model", metavar="DIR", help="model folder to check (default: the configured one)")
    d.add_argument("--snapshot", metavar="FILE", help="judge a saved snapshot instead of this machine")
    d.add_argument("--save-snapshot", metavar="FILE", help="also save what was read, for a bug report")
    d.add_argument("--quick", action="store_true",
                   help="skip the slow parts: model checksums and the network")
    d.add_argument("--offline", action="store_true", help="do not contact the model host")
    d.add_argument("--details", action="store_true", help="show each check's details")
    return p


def read_input_text(text: str | None, file: str | None) -> str:
    if text is not None and file is not None:
        raise InputTextError(_("Give the text or {option}, not both.").format(option="--file"))
    if file is None:
        if text is None:
            raise InputTextError(_("There is no text to speak; give it as an argument or with {option}.").format(
                option="--file"))
        return text
    if file == "-":
        source = _("Standard input")
        return decode_text(read_capped(sys.stdin.buffer, source), source)
    return read_text_file(file)


def cmd_synth(args) -> int:
    from app.engine.audio.wav import check_output_path, write_wav
    from app.engine.models.store import ModelStore
    from app.engine.request import SamplingParams, SynthesisRequest
    from app.engine.text.prepare import check_speakable, check_text

    text = check_speakable(check_text(read_input_text(args.text, args.file)))
    output = check_output_path(args.output)
    if args.file not in (None, "-") and Path(args.file).expanduser().resolve() == output.resolve():
        raise OutputError(_("The output {output} is the input file {input}, and writing it would "
                            "replace your text with audio; choose another output name.").format(
                              output=args.output, input=args.file))
    store = ModelStore(args.model)
    store.require_present()

    from app.engine.synthesizer import Synthesizer

    # A file gets the whole-sentence vocoder: streaming only helps when someone is listening.
    synth = Synthesizer(store.root, device=args.device, decode=args.decode, precision=args.precision,
                        stream=False)
    synth.load()
    request = SynthesisRequest(
        text=text, seed=args.seed, speaker=args.speaker, refine_text=not args.no_refine,
        speed=args.speed, voice_lock=not args.no_voice_lock,
        sampling=SamplingParams(temperature=args.temperature, top_p=args.top_p,
                                top_k=args.top_k, max_new_tokens=args.max_tokens),
    )
    from app.ctrl_c import ctrl_c_cancels

    try:
        with ctrl_c_cancels(synth):
            result = synth.run(request)
    except (KeyboardInterrupt, SynthesisCancelled):
        synth.cancel()
        raise SynthesisCancelled(_("Stopped; no file was written.")) from None
    if result.duration == 0:
        raise InputTextError(_("The model produced no audio for this text; try other wording or another seed."))
    write_wav(output, result.audio, result.sample_rate)

    summary = {
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
        "test_model": result.test_model,
        "warnings": synth.notes + result.warnings,
    }
    for warning in synth.notes + result.warnings:
        print(_("Note: {message}").format(message=warning), file=sys.stderr)
    if result.decode.split("-")[-1] in EXPERIMENTAL:
        print(_("Note: precision {precision} is experimental: it is faster, but not yet checked by ear on the "
                "official weights; use {option} if it sounds wrong.").format(
                  precision=result.decode.split("-")[-1], option="--precision fp32"), file=sys.stderr)
    if result.test_model:
        print(_("Note: {model} is a random-weight test model; {file} holds noise, not speech.").format(
            model=store.root, file=output.name), file=sys.stderr)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(_("Wrote {file}: {duration} s of audio in {seconds} s on {device} "
                "(model loaded in {load} s).").format(
                  file=output, duration=f"{result.duration:.1f}", seconds=f"{result.synth_seconds:.1f}",
                  device=result.device, load=f"{synth.load_seconds:.1f}"))
    return 0


def cmd_normalize(args) -> int:
    from app.engine.library.lexicon import PronunciationDictionary
    from app.engine.text.spoken import ChatTTSTextFilter, spoken_segments

    text = read_input_text(args.text, args.file)
    # The same text as the model gets, without importing ChatTTS and torch (seconds).
    prepared = spoken_segments(text, PronunciationDictionary(), ChatTTSTextFilter())
    if args.json:
        print(json.dumps({"segments": prepared.segments, "warnings": prepared.warnings}, ensure_ascii=False))
    else:
        print(prepared.spoken)
        for warning in prepared.warnings:
            print(_("Note: {message}").format(message=warning), file=sys.stderr)
    return 0


def cmd_doctor(args) -> int:
    from app.doctor.probes import SnapshotProbe
    from app.doctor.report import render_json, render_text
    from app.doctor.runner import run_doctor
    from app.doctor.snapshot import load_snapshot, save_snapshot

    if args.snapshot:
        probe = SnapshotProbe(load_snapshot(args.snapshot))
    else:
        from app.doctor.probes.live import LiveProbe

        probe = LiveProbe(args.model, verify_model=not args.quick, offline=args.quick or args.offline)
    report = run_doctor(probe)
    if args.save_snapshot:
        try:
            save_snapshot(report.snapshot, args.save_snapshot)
        except OSError as exc:
            raise OutputError(_("The snapshot could not be saved to {file} ({reason}).").format(
                file=args.save_snapshot, reason=exc.strerror or exc)) from None
    print(render_json(report) if args.json else render_text(report, verbose=args.details))
    if args.save_snapshot and not args.json:
        print("\n" + _("Snapshot saved to {file}; attach it to a bug report.").format(file=args.save_snapshot))
    return 1 if report.failed else 0


def cmd_self_test(args) -> int:
    from app.selftest import main as self_test

    return self_test(args.json)


def cmd_window(args) -> int:
    from app.bootstrap import setup_logging
    from app.ui.app import run_window

    return run_window(setup_logging(), cli_window.overrides(args), args.file)


def _language_asked(argv: list[str]) -> str | None:
    """The value of --lang, read before argparse runs (None: the system's language)."""
    for word, following in zip(argv, [*argv[1:], None]):
        if word == "--lang":
            return following
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    set_language(_language_asked(argv))   # before parsing: a bad option value is said in it too
    parser = _parser()
    commands = set(parser._subparsers._group_actions[0].choices)
    if cli_window.is_window_call(argv, commands):
        args = cli_window.parser().parse_args(argv)
        args.command = None
    else:
        args = parser.parse_args(argv)
    from app.bootstrap import bootstrap

    # The window command passes --lang on to the window's own setting (cli_window.overrides).
    set_language(args.lang)
    bootstrap(verbose=args.verbose)
    handler = {"synth": cmd_synth, "normalize": cmd_normalize, "doctor": cmd_doctor,
               "models": cli_models.run, "self-test": cmd_self_test, None: cmd_window}[args.command]
    try:
        return handler(args)
    except StudioError as exc:
        if getattr(args, "json", False):
            print(json.dumps({"error": str(exc), "kind": type(exc).__name__}, ensure_ascii=False))
        print(_("error: {message}").format(message=exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(_("Stopped."), file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")
        return 0
