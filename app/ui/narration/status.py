"""A sentence's status as the table and the waveform show it: a word and a colour.

The project keeps the status as a value (an enum or its string); the words live here, in the
"SentenceStatus" translation context.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QApplication, QStyle

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


# What the take checker found in a sentence's chosen take, as a value the table gives (CheckRole).
FLAGGED, CHECKED, NOT_CHECKED = "flagged", "checked", "not_checked"
CHECK_TIPS = {
    FLAGGED: QT_TRANSLATE_NOOP("SentenceStatus", "The take check flagged this take:"),
    CHECKED: QT_TRANSLATE_NOOP("SentenceStatus", "Checked: the take check found nothing wrong."),
    NOT_CHECKED: QT_TRANSLATE_NOOP(
        "SentenceStatus", "Not checked: the take checker's models are not installed."
    ),
}


def check_value(sentence) -> str:
    """FLAGGED, CHECKED, NOT_CHECKED (the checker's models were missing), or "" (no record)."""
    check = getattr(sentence, "check", None)
    if check is None:
        return ""
    if not check.checked:
        return NOT_CHECKED
    return FLAGGED if check.flagged else CHECKED


def check_tooltip(sentence) -> str:
    value = check_value(sentence)
    if not value:
        return ""
    tip = QCoreApplication.translate(CONTEXT, CHECK_TIPS[value])
    if value == FLAGGED:
        tip += "\n" + "\n".join(sentence.check.reasons())
    return tip


def check_icon(sentence):
    """A warning sign on a flagged take, a tick on a checked one, nothing otherwise."""
    value = check_value(sentence)
    pixmap = {
        FLAGGED: QStyle.StandardPixmap.SP_MessageBoxWarning,
        CHECKED: QStyle.StandardPixmap.SP_DialogApplyButton,
    }.get(value)
    style = QApplication.style() if pixmap is not None else None
    return style.standardIcon(pixmap) if style is not None and pixmap is not None else None
