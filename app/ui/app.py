"""Start the Qt application and show the main window."""

from __future__ import annotations

import sys


def run_window() -> int:
    from PySide6.QtWidgets import QApplication

    from app.ui.placeholder import PlaceholderWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ChatTTS Studio")
    window = PlaceholderWindow()
    window.show()
    return app.exec()
