"""Entry point: `python -m app`, the `chattts-studio` console script and the GUI script."""

from __future__ import annotations

import multiprocessing
import sys


def _report_fatal(exc: BaseException) -> None:
    """Last resort for a crash before the window exists: log it and say where the log is, on
    stderr, or in a native message box when a windowed build has no console to print to."""
    import logging
    import traceback

    from app import paths
    from app.bootstrap import LOG_NAME

    log_path = paths.log_dir() / LOG_NAME
    try:
        logging.getLogger("chattts_studio").critical("fatal error", exc_info=exc)
    except Exception:
        pass
    message = (
        f"ChatTTS Studio could not start: {type(exc).__name__}: {exc}\n\nDetails are in {log_path}."
    )
    from app.bootstrap import has_console

    # A console build (CI, a script, `doctor > report.txt`) must never wait on a click.
    if sys.platform == "win32" and not has_console():
        _show_message_box(message)
        return
    try:
        traceback.print_exception(exc, file=sys.stderr)
        print(message, file=sys.stderr)
    except Exception:
        pass  # stderr itself is broken; the log has it


def _show_message_box(message: str) -> None:
    import ctypes

    ctypes.windll.user32.MessageBoxW(None, message, "ChatTTS Studio", 0x10)  # MB_ICONERROR


def main(argv: list[str] | None = None) -> int:
    # First, before anything else: a frozen Windows build re-executes itself for workers.
    multiprocessing.freeze_support()
    from app.bootstrap import guard_stdio

    # A windowed build has no stdout/stderr (argparse may still write); a console's code page
    # may lack ✓ (cp1252, cp936): both must not crash.
    guard_stdio()
    from app.cli import main as cli_main

    try:
        return cli_main(argv)
    except SystemExit:
        raise
    except BaseException as exc:
        _report_fatal(exc)
        return 3


def gui_main() -> int:
    """The windowed entry point (no console on Windows): always the window."""
    return main([])


if __name__ == "__main__":
    sys.exit(main())
