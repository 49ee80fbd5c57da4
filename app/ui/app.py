"""Start the Qt application and show the main window (before any model code is imported)."""

from __future__ import annotations

import sys


def run_window(log_path: str | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    from app.ui.crash_dialog import install_gui_excepthook
    from app.ui.i18n import apply_language
    from app.ui.main_window import MainWindow, show_when_ready
    from app.ui.settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ChatTTS Studio")
    app.setOrganizationName("ChatTTS Studio")
    from PySide6.QtGui import QIcon

    from app.resources import resources_dir

    app.setWindowIcon(QIcon(str(resources_dir() / "icons" / "app.png")))
    install_gui_excepthook(log_path)
    settings = Settings()
    apply_language(settings.language)
    window = MainWindow(settings)
    show_when_ready(window)
    return app.exec()
