"""`chattts-studio check AUDIO... --text TEXT | --text-file F`: is each take usable?

One audio file per sentence (WAV or FLAC); with --text-file, one line of text per file, in
order. Prints each finding as a sentence (or JSON with --json) and exits 1 when a take is
flagged, 2 on a user error. With three takes or more, the speaking rate is learnt from the
takes themselves (their median), as a project learns it from its earlier takes.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from app.core import InputTextError, UnreadableFileError, read_bytes_capped
from app.i18n import _
from app.text import read_text_file

LANGUAGES = ("en", "zh")
# A take is one sentence: a file this large or this long is not one.
MAX_AUDIO_BYTES = 200 * 1024 * 1024
MAX_SECONDS = 600.0
MAX_FILES = 10_000
RATES = (8000, 192_000)
# Learning the rate from the takes themselves needs a few of them (a median of three).
LEARN_FROM = 3


def add_parser(sub) -> None:
    c = sub.add_parser(
        "check",
        help="check takes (audio files) against their text",
        description="Check each audio file (one per sentence) against its text: no speech, "
        "a cut-off ending, babble, long silences, a different voice, clipping, level.",
    )
    c.add_argument("audio", nargs="+", metavar="AUDIO", help="WAV or FLAC files, one per sentence")
    text = c.add_mutually_exclusive_group(required=True)
    text.add_argument("--text", help="the text of the one AUDIO file")
    text.add_argument(
        "--text-file", metavar="F", help="a text file with one line per AUDIO file, in order"
    )
    c.add_argument(
        "--language",
        choices=LANGUAGES,
        help="the text's language (default: zh where the text has Chinese characters, else en)",
    )
    c.add_argument("--reference", metavar="VOICE.wav", help="a recording of the voice to expect")
    c.add_argument("--json", action="store_true", help="print the findings as JSON")
    c.set_defaults(func=run)


def texts_for(args) -> list[str]:
    if args.text is not None:
        texts = [args.text]
    else:
        texts = [line.strip() for line in read_text_file(args.text_file).splitlines()]
        texts = [line for line in texts if line]
    if len(args.audio) > MAX_FILES:
        raise InputTextError(_("Give at most {count} files at once.").format(count=MAX_FILES))
    if len(texts) != len(args.audio):
        raise InputTextError(
            _(
                "There are {files} audio files but {lines} lines of text; give one line per file."
            ).format(files=len(args.audio), lines=len(texts))
        )
    if not all(texts):
        raise InputTextError(_("The text is empty; give the sentence each file speaks."))
    return texts


def read_audio(path: str):
    """(mono float32 samples, sample rate) of a WAV or FLAC file, read with size caps."""
    import numpy as np
    import soundfile as sf

    data = read_bytes_capped(path, MAX_AUDIO_BYTES, _("audio file"))
    try:
        info = sf.info(io.BytesIO(data))
        if not RATES[0] <= info.samplerate <= RATES[1] or not 1 <= info.channels <= 8:
            raise UnreadableFileError(
                _(
                    "The audio file {file} has {rate} Hz and {channels} channels; give 8-192 kHz "
                    "with up to 8 channels."
                ).format(file=path, rate=info.samplerate, channels=info.channels)
            )
        if info.frames > MAX_SECONDS * info.samplerate:
            raise UnreadableFileError(
                _(
                    "The audio file {file} is longer than {seconds} s; give one sentence per file."
                ).format(file=path, seconds=int(MAX_SECONDS))
            )
        audio, rate = sf.read(io.BytesIO(data), dtype="float32", always_2d=True)
    except (sf.SoundFileError, RuntimeError, ValueError, TypeError, EOFError):
        raise UnreadableFileError(
            _("The audio file {file} cannot be read as WAV or FLAC.").format(file=path)
        ) from None
    return np.ascontiguousarray(audio.mean(axis=1), dtype=np.float32), int(rate)


def run(args) -> int:
    texts = texts_for(args)
    takes = [read_audio(path) for path in args.audio]
    reference_audio = read_audio(args.reference) if args.reference else None

    from app.audio import (
        Expectation,
        SpeakingRate,
        guess_language,
        judge_take,
        measure_take,
        voice_embedding,
    )

    language = args.language or guess_language(texts)
    measured = [measure_take(audio, rate) for audio, rate in takes]
    rate = SpeakingRate.default(language)
    if len(measured) >= LEARN_FROM:
        rate = SpeakingRate.learn(
            language, [(t, m.speech_seconds) for t, m in zip(texts, measured)], rate
        )
    reference = voice_embedding(*reference_audio) if reference_audio else None
    reports = [
        judge_take(m, Expectation(text=t, language=language, rate=rate, reference=reference))
        for t, m in zip(texts, measured)
    ]
    notes = sorted({str(r.note) for r in reports if r.note})
    if args.json:
        print(
            json.dumps(
                {
                    "language": language,
                    "units_per_second": round(rate.units_per_second, 3),
                    "notes": notes,
                    "flagged": sum(r.flagged for r in reports),
                    "takes": [
                        {"file": path, "text": text, **report.as_dict()}
                        for path, text, report in zip(args.audio, texts, reports)
                    ],
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        for note in notes:
            print(note, file=sys.stderr)
        for path, report in zip(args.audio, reports):
            name = Path(path).name
            if report.checked and not report.findings:
                print(_("{file}: no problem found.").format(file=name))
            for finding in report.findings:
                print(_("{file}: {reason}").format(file=name, reason=finding.reason))
    return 1 if any(r.flagged for r in reports) else 0
