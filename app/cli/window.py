"""`chattts-studio [--model DIR] [--device ...] [--precision ...] [FILE.txt]`: the window.

The window's options live in a parser of their own: a top-level optional FILE would swallow
the subcommand names (`synth`, `doctor`, ...) in one argparse parser. They apply to this
session only and are never saved (a choice made in the window's menus replaces them).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app.cli.arguments import Parser
from app.core import DEVICE_CHOICES as DEVICES
from app.decode import Precision
from app.i18n import LANGUAGES

# Offered by the window's Precision menu (app/ui/settings.py WINDOW_PRECISIONS, which imports Qt).
WINDOW_PRECISIONS = tuple(
    p.value for p in (Precision.AUTO, Precision.INT8, Precision.BF16, Precision.FP32)
)
USAGE = (
    "chattts-studio [--model DIR] [--device auto|cpu|cuda] [--precision auto|int8|bf16|fp32] "
    f"[--lang {'|'.join(LANGUAGES)}] [FILE.txt]"
)


def is_window_call(argv: list[str], commands: set[str]) -> bool:
    """No subcommand among the words (and not asking for help or the version)."""
    return not any(word in commands or word in ("-h", "--help", "--version") for word in argv)


def parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chattts-studio",
        usage=USAGE,
        description="Open the window (what chattts-studio does without a command).",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="also print the log to the console")
    p.add_argument("--model", metavar="DIR", help="model folder for this session")
    p.add_argument("--device", choices=DEVICES, help="where to run, for this session")
    p.add_argument(
        "--precision",
        choices=WINDOW_PRECISIONS,
        help="the decode step's number format, for this session",
    )
    p.add_argument("--lang", choices=LANGUAGES, help="the window's language, for this session")
    p.add_argument("file", nargs="?", metavar="FILE.txt", help="a text file to open in the editor")
    p.set_defaults(func=run)
    return p


def overrides(args) -> dict:
    """Settings keys (app/ui/settings.py) for what was given."""
    given = {
        "model/dir": str(Path(args.model).expanduser().resolve()) if args.model else None,
        "model/device": args.device,
        "model/precision": args.precision,
        "ui/language": getattr(args, "lang", None),
    }
    return {key: value for key, value in given.items() if value is not None}


def run(args) -> int:
    from app.bootstrap import setup_logging
    from app.ui.app import run_window

    return run_window(setup_logging(), overrides(args), args.file)
