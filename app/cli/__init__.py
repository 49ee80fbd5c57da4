"""Command line: `chattts-studio COMMAND ...`; with no command it opens the window.

One module per command (synth, normalize, models/, self-test, doctor, test-model, and the
window's own options), each adding its argparse subparser with `set_defaults(func=run)`;
parser.py puts them together. Every failure a user can meet is a StudioError: one `error:`
line and its exit code (2 for a mistake, 130 for Ctrl+C), never a traceback.
"""

from __future__ import annotations

import json
import os
import sys

from app.cli.parser import language_asked, parse
from app.core import StudioError
from app.i18n import _, set_language


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    set_language(language_asked(argv))  # before parsing: a bad option value is said in it too
    args = parse(argv)
    from app.bootstrap import bootstrap

    # The window passes --lang on to its own setting (window.overrides).
    set_language(args.lang)
    bootstrap(verbose=args.verbose)
    from app import paths
    from app.third_party_output import third_party_output_to_log

    # A command's terminal shows our sentences only; what libraries print goes to the log
    # folder (the window keeps its own; -v shows everything).
    quiet = getattr(args, "command", None) is not None and not args.verbose
    try:
        with third_party_output_to_log(paths.log_dir() if quiet else None):
            return args.func(args)
    except StudioError as exc:
        if getattr(args, "json", False) is True:
            print(json.dumps({"error": str(exc), "kind": type(exc).__name__}, ensure_ascii=False))
        print(_("error: {message}").format(message=exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(_("Stopped."), file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the process is ending)
        return 0
