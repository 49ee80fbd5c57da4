"""`chattts-studio models status|verify|download|import PATH|remove`: the model files.

One module per subcommand; --model and --json are accepted before or after the subcommand's
name (`models --model D status` and `models status --model D`), as they always were.
"""

from __future__ import annotations

import argparse

from app.cli.models import download, import_model, remove, status


def add_common(parser, top: bool) -> None:
    # Below the subcommand the defaults are suppressed, so a value given before it survives.
    default = None if top else argparse.SUPPRESS
    parser.add_argument(
        "--model",
        metavar="DIR",
        default=default,
        help="the model folder (default: CHATTTS_STUDIO_MODEL_DIR, else the one chosen in the window)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=False if top else argparse.SUPPRESS,
        help="print the result as JSON",
    )


def add_parser(sub) -> None:
    m = sub.add_parser(
        "models",
        help="download, verify, import or remove the model",
        description="Manage the ChatTTS model files.",
    )
    add_common(m, top=True)
    actions = m.add_subparsers(dest="action", metavar="ACTION", required=True)
    for module in (status, download, import_model, remove):
        for parser in module.add_parsers(actions):
            add_common(parser, top=False)
