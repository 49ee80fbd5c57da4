"""Entry point: `python -m app`, the `chattts-studio` console script and the GUI script."""

from __future__ import annotations

import multiprocessing
import sys


def _report_fatal(exc: BaseException) -> None:
    """Last resort for a crash before the window exists: log it and, in a windowed build
    (no console to print to), say where the log is in a native message box."""
    import logging
    import traceback

    from app import paths

    log_path = paths.log_dir() / "chattts-studio.log"
    try:
        logging.getLogger("chattts_studio").critical("fatal error", exc_info=exc)
    except Exception:
        pass
    message = (f"ChatTTS Studio could not start: {type(exc).__name__}: {exc}\n\n"
               f"Details are in {log_path}.")
    if sys.platform == "win32" and getattr(sys, "frozen", False):
        import ctypes

        ctypes.windll.user32.MessageBoxW(None, message, "ChatTTS Studio", 0x10)
    elif sys.stderr is not None:
        traceback.print_exception(exc, file=sys.stderr)
        print(message, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    # First, before anything else: a frozen Windows build re-executes itself for workers.
    multiprocessing.freeze_support()
    from app.bootstrap import guard_stdio

    guard_stdio()  # a windowed build has no stdout/stderr; argparse may still write
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
