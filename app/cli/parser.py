"""The top-level parser: global options and one subcommand per module of this package."""

from __future__ import annotations

import argparse

from app import __version__
from app.cli import doctor, models, narrate, normalize, random_model, self_test, serve, synth, window
from app.cli.arguments import Parser
from app.i18n import LANGUAGES

# Each module adds its subparser and sets `func`, the function that runs it.
COMMANDS = (synth, normalize, models, self_test, doctor, random_model, serve, narrate)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="chattts-studio",
        description="Turn text into speech with ChatTTS. Without a command, opens the window.",
        epilog="The window: " + window.USAGE,
    )
    p.add_argument("--version", action="version", version=f"ChatTTS Studio {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="also print the log to the console")
    p.add_argument("--lang", choices=LANGUAGES,
                   help="language of the messages (default: the system's, from LANG/LC_ALL/LC_MESSAGES "
                        "or the Windows display language)")
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
    if window.is_window_call(argv, command_names(parser)):
        return window.parser().parse_args(argv)
    return parser.parse_args(argv)


def language_asked(argv: list[str]) -> str | None:
    """The value of --lang, read before argparse runs (None: the system's language)."""
    for word, following in zip(argv, [*argv[1:], None]):
        if word == "--lang":
            return following
        if word.startswith("--lang="):
            return word.partition("=")[2]
    return None
