"""What a model folder holds: the one fact behind "noise, not speech", kept here because the
library's history records it as well as the model's description (the library sits below app.model)."""

from __future__ import annotations

from enum import StrEnum


class ModelKind(StrEnum):
    """What a model folder holds (a random-weight model's config file says RANDOM_WEIGHTS too)."""

    OFFICIAL = "official"
    RANDOM_WEIGHTS = "random-weights"  # makes noise, not speech: for tests and the self-test

    @property
    def makes_speech(self) -> bool:
        """False for random weights: every edge then says the audio is noise, not speech."""
        return self is ModelKind.OFFICIAL

    @classmethod
    def of(cls, description: dict | None) -> ModelKind:
        """The kind of a model folder from its studio description (None: the official layout)."""
        return cls.OFFICIAL if description is None else cls.RANDOM_WEIGHTS
