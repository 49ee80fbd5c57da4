"""`models status` (checksums from the cache) and `models verify` (every file hashed again)."""

from __future__ import annotations

from app.cli.models.report import print_report


def add_parsers(actions) -> list:
    s = actions.add_parser(
        "status", help="what is there and what is missing (exit 1 unless complete)"
    )
    s.set_defaults(func=run, use_cache=True)
    v = actions.add_parser(
        "verify", help="hash every file again and compare it with the official list"
    )
    v.set_defaults(func=run, use_cache=False)
    return [s, v]


def run(args) -> int:
    from app.model import ModelStore
    from app.user_settings import model_dir_choice

    choice = model_dir_choice(args.model)
    store = ModelStore(choice.path)
    # Always the status, also before anything was downloaded: what is missing, how to get it,
    # and which setting chose the folder (the window's choice, the environment, --model).
    return print_report(store, store.verify(use_cache=args.use_cache), args.json, choice)
