"""A project's export settings: export's own model (app/narration/export/settings.py), stored as
JSON in the project file. What is read back is hostile: `parse_settings` keeps every valid
field and puts a bad one back to its default with a sentence."""

from __future__ import annotations

import json

from app.narration.export.settings import ExportSettings, parse_settings

MAX_SETTINGS_JSON = 64_000


def read_settings(raw) -> tuple[ExportSettings, list[str]]:
    """Settings from the stored text (None: never saved), and sentences about what was bad."""
    if raw is None:
        return ExportSettings(), []
    if not isinstance(raw, str) or len(raw) > MAX_SETTINGS_JSON:
        return parse_settings("unreadable")
    try:
        data = json.loads(raw)
    except ValueError:
        return parse_settings("unreadable")
    return parse_settings(data)


__all__ = ["MAX_SETTINGS_JSON", "ExportSettings", "read_settings"]
