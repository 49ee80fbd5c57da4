"""The one error a narration project raises: its message is the sentence the user reads."""

from __future__ import annotations

from app.engine.errors import StudioError


class ProjectError(StudioError):
    """A project file that cannot be created, opened, read or changed; the message says why
    and what to do."""
