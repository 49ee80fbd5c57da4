"""What several commands share: the parser class, numbers with ranges, the text to read.

A bad number is one sentence and exit code 2, before any work. The ranges are the ones
SynthesisRequest enforces for the window (app/core/request.py), so the command line and the
window refuse the same values with the same words.
"""

from __future__ import annotations

import argparse
import math
import sys

from app.core import InputTextError, ParameterError, check_number
from app.i18n import _
from app.text import decode_text, read_capped, read_text_file


def number(option: str, low, high=None, low_open: bool = False, integer: bool = False):
    def parse(text: str):
        try:
            value = int(text, 10) if integer else float(text)
        except ValueError:
            message = (
                _("{option} must be a whole number, not '{value}'.")
                if integer
                else _("{option} must be a number, not '{value}'.")
            )
            raise argparse.ArgumentTypeError(
                message.format(option=option, value=text[:40])
            ) from None
        if not integer and not math.isfinite(value):
            raise argparse.ArgumentTypeError(
                _("{option} must be a finite number, not '{value}'.").format(
                    option=option, value=text[:40]
                )
            )
        try:
            return check_number(option, value, low, high, low_open=low_open, integer=integer)
        except ParameterError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = option  # argparse names the type in some messages
    return parse


class Parser(argparse.ArgumentParser):
    """Every usage error is one `error:` line and exit code 2 (no usage block to scroll past)."""

    def error(self, message):
        head, _sep, rest = message.partition(": ")
        if head.startswith("argument ") and rest.startswith("--"):
            # Our range errors are complete sentences naming the option: just that sentence.
            self.exit(2, _("error: {message}").format(message=rest) + "\n")
        self.exit(
            2,
            _("error: {message}").format(
                message=_("{program}: {problem} (see {help})").format(
                    program=self.prog, problem=message, help=f"{self.prog} --help"
                )
            )
            + "\n",
        )


def read_input_text(text: str | None, file: str | None) -> str:
    """The TEXT argument or the text of --file ('-': standard input), never both."""
    if text is not None and file is not None:
        raise InputTextError(_("Give the text or {option}, not both.").format(option="--file"))
    if file is None:
        if text is None:
            raise InputTextError(
                _("There is no text to speak; give it as an argument or with {option}.").format(
                    option="--file"
                )
            )
        return text
    if file == "-":
        source = _("Standard input")
        return decode_text(read_capped(sys.stdin.buffer, source), source)
    return read_text_file(file)
