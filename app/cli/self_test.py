"""`chattts-studio self-test [--json FILE]`: does this installation work end to end?

The steps themselves live in app/selftest (shipped with what they need); exit code 1 when
one fails.
"""

from __future__ import annotations


def add_parser(sub) -> None:
    t = sub.add_parser(
        "self-test",
        help="check that this installation works end to end",
        description="Import PyTorch, check resources, build the window offscreen and "
        "speak a sentence with a tiny random-weight model. Exit 1 on failure.",
    )
    # Not `json`: main prints a failure as JSON on stdout only for the --json switches.
    t.add_argument(
        "--json", dest="json_path", metavar="FILE", help="also write the report as JSON to FILE"
    )
    t.set_defaults(func=run)


def run(args) -> int:
    from app.selftest.steps import main as self_test

    return self_test(args.json_path)
