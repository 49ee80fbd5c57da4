"""argparse types with ranges: a bad number is one sentence and exit code 2, before any work.

The ranges are the ones SynthesisRequest enforces for the window (app/engine/request.py), so
the command line and the window refuse the same values with the same words.
"""

from __future__ import annotations

import argparse
import math

from app.engine.request import ParameterError, check_number
from app.i18n import _


def number(option: str, low, high=None, low_open: bool = False, integer: bool = False):
    def parse(text: str):
        try:
            value = int(text, 10) if integer else float(text)
        except ValueError:
            message = (_("{option} must be a whole number, not '{value}'.") if integer
                       else _("{option} must be a number, not '{value}'."))
            raise argparse.ArgumentTypeError(message.format(option=option, value=text[:40])) from None
        if not integer and not math.isfinite(value):
            raise argparse.ArgumentTypeError(_("{option} must be a finite number, not '{value}'.").format(
                option=option, value=text[:40]))
        try:
            return check_number(option, value, low, high, low_open=low_open, integer=integer)
        except ParameterError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = option   # argparse names the type in some messages
    return parse


class Parser(argparse.ArgumentParser):
    """Our range errors are complete sentences naming the option: print just that sentence."""

    def error(self, message):
        head, _sep, rest = message.partition(": ")
        if head.startswith("argument ") and rest.startswith("--"):
            self.exit(2, _("error: {message}").format(message=rest) + "\n")
        super().error(message)
