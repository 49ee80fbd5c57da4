"""The Qt binding keeps Python's reference counts: PySide6 6.12.0 on Python 3.11 took one
reference to None from every void call (QLabel.setText) and one to True from every signal
emit, so a window that had made a few thousand calls aborted with "none_dealloc" (a test
session did at exit). pyproject.toml keeps that build out; this says so if it comes back."""

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel

CALLS = 500


class _Sender(QObject):
    ping = Signal()


def test_void_calls_and_emits_keep_the_reference_counts(qtbot):
    import PySide6

    label = QLabel()
    qtbot.addWidget(label)
    sender = _Sender()
    sender.ping.connect(lambda: None)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(CALLS):
        label.setText("x")
        sender.ping.emit()
    lost_none = none_before - sys.getrefcount(None)
    lost_true = true_before - sys.getrefcount(True)
    assert lost_none < CALLS // 2 and lost_true < CALLS // 2, (
        f"PySide6 {PySide6.__version__} on Python {sys.version.split()[0]} loses references "
        f"(None: {lost_none}, True: {lost_true} in {CALLS} calls); install the version pyproject.toml asks for"
    )
