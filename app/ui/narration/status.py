"""A sentence's status as the table and the waveform show it: a word and a colour.

The project keeps the status as a value (an enum or its string); the words live here, in the
"SentenceStatus" translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

CONTEXT = "SentenceStatus"
LABELS = {
    "pending": QT_TRANSLATE_NOOP("SentenceStatus", "To render"),
    "done": QT_TRANSLATE_NOOP("SentenceStatus", "Done"),
    "failed": QT_TRANSLATE_NOOP("SentenceStatus", "Failed"),
}
COLORS = {"pending": "#8a6d00", "done": "#1e7b34", "failed": "#b3261e"}


def status_value(status) -> str:
    return str(getattr(status, "value", status))


def status_label(status) -> str:
    value = status_value(status)
    label = LABELS.get(value)
    return QCoreApplication.translate(CONTEXT, label) if label else value


def status_color(status) -> str | None:
    return COLORS.get(status_value(status))
