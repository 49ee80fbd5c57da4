"""Unhandled exceptions in the GUI end in a dialog that names the log file, not a silent exit."""

from __future__ import annotations

import logging
import sys

from PySide6.QtWidgets import QApplication, QMessageBox

log = logging.getLogger("chattts_studio")


def crash_message(exc: BaseException, log_path: str | None) -> str:
    where = log_path or "the log folder (Help > Open the log folder)"
    return (
        f"Something went wrong: {type(exc).__name__}: {exc}\n\n"
        f"The details were written to {where}. Please attach that file to a bug report."
    )


def install_gui_excepthook(log_path: str | None) -> None:
    def hook(exc_type, exc, tb):
        log.critical("unhandled exception", exc_info=(exc_type, exc, tb))
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        if QApplication.instance() is not None:
            QMessageBox.critical(None, "ChatTTS Studio", crash_message(exc, log_path))
        else:
            sys.__excepthook__(exc_type, exc, tb)

    sys.excepthook = hook
