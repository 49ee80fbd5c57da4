"""`models download [--source NAME] [--url URL]`: fetch what is missing or wrong."""

from __future__ import annotations

import sys

from app.cli.models.report import print_report, progress_printer
from app.model import SOURCE_NAMES


def add_parsers(actions) -> list:
    d = actions.add_parser("download", help="download what is missing or damaged, then verify it")
    d.add_argument(
        "--source",
        choices=SOURCE_NAMES,
        default="huggingface",
        help="download source (default huggingface, honouring HF_ENDPOINT)",
    )
    d.add_argument("--url", help="mirror or custom source address")
    d.set_defaults(func=run)
    return [d]


def run(args) -> int:
    from app.model import ModelDownloader, ModelStore, make_source

    store = ModelStore(args.model)
    source = make_source(args.source, args.url)
    downloader = ModelDownloader(store.root, source, on_progress=progress_printer(args.json))
    try:
        downloader.run()
    except KeyboardInterrupt:
        downloader.cancel()
        raise
    finally:
        if not args.json:
            sys.stderr.write("\n")
    # The downloader recorded what it verified: no second hashing.
    return print_report(store, store.verify(), args.json)
