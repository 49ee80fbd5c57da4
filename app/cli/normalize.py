"""`chattts-studio normalize TEXT`: print exactly what will be spoken.

It runs the same text preparation as the model gets without importing ChatTTS and torch,
so it answers in a moment.
"""

from __future__ import annotations

import json
import sys

from app.cli.arguments import read_input_text
from app.i18n import _


def add_parser(sub) -> None:
    n = sub.add_parser(
        "normalize",
        help="show exactly what will be spoken",
        description="Print the text as ChatTTS will get it: your pronunciation "
        "dictionary, numbers/dates/units in words, one segment per line.",
    )
    n.add_argument("text", nargs="?", help="the text (or use --file)")
    n.add_argument(
        "--file", metavar="IN.txt", help="read the text from this file ('-' for standard input)"
    )
    n.add_argument("--json", action="store_true", help="print segments and warnings as JSON")
    n.set_defaults(func=run)


def run(args) -> int:
    from app.library import PronunciationDictionary
    from app.text import ChatTTSTextFilter, spoken_segments

    text = read_input_text(args.text, args.file)
    prepared = spoken_segments(text, PronunciationDictionary(), ChatTTSTextFilter())
    if args.json:
        print(
            json.dumps(
                {"segments": prepared.segments, "warnings": prepared.warnings}, ensure_ascii=False
            )
        )
    else:
        print(prepared.spoken)
        for warning in prepared.warnings:
            print(_("Note: {message}").format(message=warning), file=sys.stderr)
    return 0
