"""The top-level parser: global options and one subcommand per module of this package."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path

from app import __version__
from app.cli import (
    check,
    doctor,
    models,
    narrate,
    normalize,
    random_model,
    self_test,
    serve,
    synth,
    window,
)
from app.cli.arguments import Parser
from app.i18n import LANGUAGES, _

# Each module adds its subparser and sets `func`, the function that runs it.
COMMANDS = (synth, normalize, models, self_test, doctor, random_model, serve, narrate, check)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chattts-studio",
        description="Turn text into speech with ChatTTS. Without a command, opens the window.",
        epilog="The window: " + window.USAGE,
    )
    p.add_argument("--version", action="version", version=f"ChatTTS Studio {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="also print the log to the console")
    p.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="language of the messages (default: the system's, from LANG/LC_ALL/LC_MESSAGES "
        "or the Windows display language)",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    p.commands = frozenset(sub.choices)
    return p


def command_names(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser.commands)


def parse(argv: list[str]) -> argparse.Namespace:
    """The window's options when no command is named, else the command's."""
    parser = build_parser()
    names = command_names(parser)
    if window.is_window_call(argv, names):
        p = window.parser()
        known, _rest = p.parse_known_args(argv)
        refuse_unknown_command(p, known.file, names)
        return p.parse_args(argv)
    return parser.parse_args(argv)


def refuse_unknown_command(
    parser: argparse.ArgumentParser, word: str | None, names: set[str]
) -> None:
    """A word in the window's FILE place that names no file and looks like a command (no folder,
    no extension) is a mistyped command: `docter` used to open the window, which then said the
    input file docter does not exist (tests/cli/test_dispatch.py)."""
    if (
        not word
        or word.startswith("-")
        or Path(word).exists()
        or Path(word).suffix
        or any(sep in word for sep in ("/", "\\"))
    ):
        return
    close = difflib.get_close_matches(word, sorted(names), n=1)
    if close:
        problem = _("unknown command '{word}' (did you mean {command}?)").format(
            word=word, command=close[0]
        )
    else:
        problem = _(
            "unknown command '{word}', and there is no file of that name (the commands: {commands}; see "
            "{help})"
        ).format(word=word, commands=", ".join(sorted(names)), help=f"{parser.prog} --help")
    parser.exit(2, _("error: {message}").format(message=problem) + "\n")


def language_asked(argv: list[str]) -> str | None:
    """The value of --lang, read before argparse runs (None: the system's language)."""
    for word, following in zip(argv, [*argv[1:], None]):
        if word == "--lang":
            return following
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None
