"""Entry point: `python -m app`, the `chattts-studio` console script and the GUI script."""

from __future__ import annotations

import multiprocessing
import sys


def main(argv: list[str] | None = None) -> int:
    # First, before anything else: a frozen Windows build re-executes itself for workers.
    multiprocessing.freeze_support()
    from app.cli import main as cli_main

    return cli_main(argv)


def gui_main() -> int:
    """The windowed entry point (no console on Windows): always the window."""
    multiprocessing.freeze_support()
    from app.cli import main as cli_main

    return cli_main([])


if __name__ == "__main__":
    sys.exit(main())
