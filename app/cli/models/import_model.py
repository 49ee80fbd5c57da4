"""`models import PATH [--link]`: copy (or hard-link) a model folder you already have."""

from __future__ import annotations

from app.cli.models.report import print_report
from app.core import InputTextError
from app.i18n import _


def add_parsers(actions) -> list:
    i = actions.add_parser("import", help="copy a model folder or a Hugging Face cache folder in")
    i.add_argument("path", nargs="?", help="a model folder or a Hugging Face cache folder")
    i.add_argument("--link", action="store_true", help="hard-link instead of copying")
    i.set_defaults(func=run)
    return [i]


def run(args) -> int:
    from app.model import ModelStore, import_model

    if not args.path:
        # A sentence of ours rather than argparse's "the following arguments are required".
        raise InputTextError(
            _("Give the folder to import: {command}.").format(
                command="chattts-studio models import PATH"
            )
        )
    store = ModelStore(args.model)
    return print_report(store, import_model(args.path, store.root, link=args.link), args.json)
