"""Start the Qt application and show the main window (before any model code is imported)."""

from __future__ import annotations

import sys


def run_window(
    log_path: str | None = None, overrides: dict | None = None, open_file: str | None = None
) -> int:
    """`overrides`: settings keys for this session only (see Settings.overrides);
    `open_file`: a text file to put in the editor."""
    from app.display_check import no_display
    from app.ui.xcb_check import problem

    missing = no_display() or problem()
    if missing:
        import logging

        logging.getLogger("chattts_studio").error("%s", missing)
        print(f"error: {missing}", file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    from app.ui.crash_dialog import install_gui_excepthook
    from app.ui.i18n import apply_language
    from app.ui.main_window import MainWindow, show_when_ready
    from app.ui.settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("ChatTTS Studio")
    app.setOrganizationName("ChatTTS Studio")
    from PySide6.QtGui import QIcon

    from app.resources import app_icon

    app.setWindowIcon(QIcon(str(app_icon())))
    install_gui_excepthook(log_path)
    settings = Settings()
    settings.overrides.update(overrides or {})
    apply_language(settings.language)
    window = MainWindow(settings)
    if open_file:
        window.text_panel.load_file(open_file)
    show_when_ready(window)
    return app.exec()
