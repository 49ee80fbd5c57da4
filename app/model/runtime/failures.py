"""A model load's failures as the user's sentence: memory, or files that do not load."""

from __future__ import annotations

import contextlib

from app.core import ModelCorruptError, OutOfMemoryError, is_out_of_memory
from app.i18n import _


@contextlib.contextmanager
def load_failures(folder, device: str):
    """Within: any failure becomes OutOfMemoryError or ModelCorruptError, each with its fix."""
    try:
        yield
    except Exception as exc:
        if is_out_of_memory(exc):
            raise OutOfMemoryError(
                _(
                    "There is not enough memory on {device} to load the model; close other programs or "
                    "use {option}."
                ).format(device=device, option="--device cpu")
            ) from exc
        raise ModelCorruptError(
            _(
                "The model in {folder} could not be loaded ({error}); its files may be damaged or from "
                "another ChatTTS version. Download them again."
            ).format(folder=folder, error=f"{type(exc).__name__}: {exc}")
        ) from exc
