"""`models remove --yes`: delete the model files (without --yes it only says what it would do)."""

from __future__ import annotations

import json
import sys

from app.i18n import _, ngettext


def add_parsers(actions) -> list:
    r = actions.add_parser("remove", help="delete the model files")
    r.add_argument("--yes", action="store_true", help="really delete the files")
    r.set_defaults(func=run)
    return [r]


def run(args) -> int:
    from app.model import ModelStore, remove_model

    store = ModelStore(args.model)
    if not args.yes:
        print(
            _("This deletes the model files in {folder}. Run again with {option} to do it.").format(
                folder=store.root, option="--yes"
            ),
            file=sys.stderr,
        )
        return 1
    removed = remove_model(store.root)
    if args.json:
        print(json.dumps({"model": str(store.root), "removed": [str(p) for p in removed]}))
    else:
        print(
            ngettext(
                "Removed {count} item from {folder}.",
                "Removed {count} items from {folder}.",
                len(removed),
            ).format(count=len(removed), folder=store.root)
        )
    return 0
