"""`chattts-studio test-model DIR [--size tiny|full]`: build a random-weight model.

The same builder the self-test uses (app/selftest): a folder in the official layout that
loads through the official weights' code path and speaks noise, for tests, benchmarks and
checking an installation without downloading the real model.
"""

from __future__ import annotations

import time

from app.cli.arguments import number
from app.core import SEED_MAX, OutputError
from app.i18n import _

SIZES = ("tiny", "full")


def add_parser(sub) -> None:
    t = sub.add_parser(
        "test-model",
        help="build a random-weight model (noise, not speech) for tests",
        description="Build a random-weight ChatTTS model (noise, not speech) for tests and "
        "benchmarks: tiny builds in seconds, full has the official dimensions.",
    )
    t.add_argument("dir", metavar="DIR", help="a new or empty folder")
    t.add_argument("--size", choices=SIZES, default="tiny", help="tiny (default) or full")
    t.add_argument(
        "--seed",
        type=number("--seed", 0, SEED_MAX, integer=True),
        default=0,
        help="weight seed (default 0)",
    )
    t.set_defaults(func=run)


def run(args) -> int:
    from app.selftest.random_model import build_random_model
    from app.synthesis import quiet_libraries

    quiet_libraries()
    started = time.perf_counter()
    try:
        out = build_random_model(args.dir, size=args.size, seed=args.seed)
    except FileExistsError:
        raise OutputError(
            _("{folder} is not empty; choose a new folder for the model.").format(folder=args.dir)
        ) from None
    except OSError as exc:
        raise OutputError(
            _("The model could not be written to {folder} ({reason}).").format(
                folder=args.dir, reason=exc.strerror or exc
            )
        ) from None
    print(
        _("Built a {size} random-weight model in {folder} ({seconds} s).").format(
            size=args.size, folder=out, seconds=f"{time.perf_counter() - started:.1f}"
        )
    )
    return 0
