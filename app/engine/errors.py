"""Failures a user can meet, each carrying the sentence we show them.

`str(error)` is that sentence: what happened and what to do. The CLI prints it and exits
non-zero; the window shows it in a dialog. Anything that is not a StudioError is a bug.
"""

from __future__ import annotations


class StudioError(Exception):
    """Base class: the message is a complete, user-facing sentence."""

    exit_code = 2


class InputTextError(StudioError):
    """The text to speak is empty, too long or unreadable."""


class ModelMissingError(StudioError):
    """The model folder, or some of its files, is missing."""

    def __init__(self, message: str, missing: list[str] | None = None):
        super().__init__(message)
        self.missing = list(missing or [])


class ModelCorruptError(StudioError):
    """Model files are present but do not match their checksums or cannot be loaded."""

    def __init__(self, message: str, bad: list[str] | None = None):
        super().__init__(message)
        self.bad = list(bad or [])


class DeviceError(StudioError):
    """The requested device cannot be used."""


class OutOfMemoryError(StudioError):
    """The device ran out of memory during synthesis."""


class OutputError(StudioError):
    """The result cannot be written where the user asked."""


class SynthesisCancelled(StudioError):
    """The user stopped synthesis; not a failure, but it ends the request."""

    exit_code = 130


class VoiceError(StudioError):
    """A speaker string or voice file that cannot be used with this model."""


class NumericalError(DeviceError):
    """The decode step's numbers overflowed (fp16 on a GPU): the result would be silence."""
