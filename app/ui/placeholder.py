"""A stand-in window until the main window lands, so the GUI entry point already works."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMainWindow

from app import __version__

MESSAGE = (
    "<h2>ChatTTS Studio {version}</h2>"
    "<p>The main window is still being built.</p>"
    "<p>Meanwhile, speak a text from a terminal:<br>"
    "<code>chattts-studio synth \"你好，世界。\" -o hello.wav</code></p>"
)


class PlaceholderWindow(QMainWindow):
    def __init__(self):
        super().__init__()
        self.setObjectName("placeholderWindow")
        self.setWindowTitle("ChatTTS Studio")
        label = QLabel(MESSAGE.format(version=__version__))
        label.setObjectName("placeholderMessage")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setMargin(24)
        self.setCentralWidget(label)
        self.resize(560, 320)
