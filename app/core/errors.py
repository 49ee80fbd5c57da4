"""Failures a user can meet, each carrying the sentence we show them.

`str(error)` is that sentence: what happened and what to do. The CLI prints it and exits
non-zero; the window shows it in a dialog. Anything that is not a StudioError is a bug.
"""

from __future__ import annotations

from app.i18n import _


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


class DiskFullError(OutputError):
    """The disk filled while writing; `folder` is where space must be freed. Work that writes on
    stops at once instead of failing every next item with the same cause."""

    def __init__(self, message: str, folder):
        super().__init__(message)
        self.folder = folder


class SynthesisCancelled(StudioError):
    """The user stopped synthesis; not a failure, but it ends the request."""

    exit_code = 130


class VoiceError(StudioError):
    """A speaker string or voice file that cannot be used with this model."""


class NumericalError(DeviceError):
    """The decode step's numbers overflowed (fp16 on a GPU): the result would be silence."""


class ParameterError(StudioError):
    """A synthesis parameter is out of its range. `option` names it; `low`/`high` bound it."""

    def __init__(self, option: str, low, high, low_open: bool = False):
        self.option, self.low, self.high, self.low_open = option, low, high, low_open
        if low_open and high is None:
            text = _("{option} must be greater than {low}; give a value in that range.")
        elif low_open:
            text = _(
                "{option} must be greater than {low} and at most {high}; give a value in that range."
            )
        elif high is None:
            text = _("{option} must be at least {low}; give a value in that range.")
        else:
            text = _("{option} must be between {low} and {high}; give a value in that range.")
        super().__init__(text.format(option=option, low=low, high=high))


class UnreadableFileError(StudioError):
    """A file is missing, too large, or not what it should be; the message names it."""


class SourceError(StudioError):
    """A download source that cannot be used as given."""


class DownloadError(StudioError):
    """The download could not finish; the message names the host and the choices."""


class DownloadCancelled(StudioError):
    """The user stopped the download; what was fetched so far stays in .partial for next time."""

    exit_code = 130


class RecordError(StudioError):
    """A stored or imported record does not fit its schema; `field` names the bad field."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


class SchemaError(StudioError):
    """The library was written by a newer version of the program."""


class LibraryError(StudioError):
    """The library cannot be opened or changed; the message says what to do."""


# Messages of failed allocations that are not raised as OutOfMemoryError.
OOM_SIGNS = (
    "out of memory",
    "can't allocate memory",
    "cublas_status_alloc_failed",
    "cudnn_status_alloc_failed",
    "cuda_error_out_of_memory",
)


def is_out_of_memory(exc: BaseException) -> bool:
    import torch

    if isinstance(exc, (torch.OutOfMemoryError, MemoryError)):
        return True
    text = str(exc).lower()
    # cuBLAS reports a failed workspace allocation with its own status, not as OOM.
    return any(sign in text for sign in OOM_SIGNS)
