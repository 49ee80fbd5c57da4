"""`chattts-studio models status|download|verify|import PATH|remove`."""

from __future__ import annotations

import json
import sys

from app.engine.models.sources import SOURCE_NAMES
from app.i18n import N_, _, ngettext

DOWNLOAD = "chattts-studio models download"
VERIFIED, MISMATCH, MISSING = N_("verified"), N_("checksum mismatch"), N_("missing")


def add_parser(sub) -> None:
    m = sub.add_parser("models", help="download, verify, import or remove the model",
                       description="Manage the ChatTTS model files.")
    m.add_argument("action", choices=["status", "download", "verify", "import", "remove"])
    m.add_argument("path", nargs="?", help="import: a model folder or a Hugging Face cache folder")
    m.add_argument("--model", metavar="DIR", help="the model folder (default: the configured one)")
    m.add_argument("--source", choices=SOURCE_NAMES, default="huggingface",
                   help="download source (default huggingface, honouring HF_ENDPOINT)")
    m.add_argument("--url", help="mirror or custom source address")
    m.add_argument("--link", action="store_true", help="import: hard-link instead of copying")
    m.add_argument("--yes", action="store_true", help="remove: really delete the files")
    m.add_argument("--json", action="store_true", help="print the result as JSON")


def _report_dict(store, report) -> dict:
    return {"model": str(store.root), "kind": report.kind, "ok": report.ok, "missing": report.missing,
            "bad": report.bad,
            "files": [{"path": f.relpath, "present": f.present, "size": f.size, "sha256_ok": f.sha256_ok}
                      for f in report.files]}


def _print_report(store, report, as_json: bool) -> None:
    if as_json:
        print(json.dumps(_report_dict(store, report), ensure_ascii=False))
        return
    print(_("Model folder: {folder} ({kind})").format(folder=store.root, kind=report.kind))
    for f in report.files:
        mark = "[✓]" if f.sha256_ok else "[✗]" if f.present else "[ ]"
        state = _(VERIFIED if f.sha256_ok else MISMATCH if f.present else MISSING)
        print(f"  {mark} {f.relpath:<42} {f.size / 1e6:8.1f} MB  {state}")
    if report.ok:
        print(_("The model is complete and verified."))
    elif not any(f.present for f in report.files):
        print(_("There is no model here yet: get it with `{download}` (or `{import_command}` for a model "
                "folder you already have).").format(download=DOWNLOAD,
                                                    import_command="chattts-studio models import PATH"))
    else:
        print(_("The model is incomplete or damaged: run `{download}` to fetch what is missing or wrong.").format(
            download=DOWNLOAD))


def _progress_printer(as_json: bool):
    last = {"line": ""}

    def show(progress) -> None:
        if as_json:
            return
        total = progress.total_bytes or 1
        sizes = dict(done=f"{progress.done_bytes / 1e6:8.1f}", total=f"{total / 1e6:.1f}",
                     speed=f"{progress.speed_bps / 1e6:.1f}")
        if progress.eta_s:
            line = _("{done} / {total} MB ({speed} MB/s, {eta} s left)").format(
                eta=f"{progress.eta_s:.0f}", **sizes)
        else:
            line = _("{done} / {total} MB ({speed} MB/s)").format(**sizes)
        line = "\r" + line
        if line != last["line"]:
            sys.stderr.write(line)
            sys.stderr.flush()
            last["line"] = line

    return show


def run(args) -> int:
    from app.engine.errors import InputTextError
    from app.engine.models.store import ModelStore

    store = ModelStore(args.model)
    if args.action in ("status", "verify"):
        # Always the status, also before anything was downloaded: what is missing, how to get it.
        report = store.verify(use_cache=args.action == "status")
        _print_report(store, report, args.json)
        return 0 if report.ok else 1
    if args.action == "download":
        from app.engine.models.download import ModelDownloader
        from app.engine.models.sources import make_source

        source = make_source(args.source, args.url)
        downloader = ModelDownloader(store.root, source, on_progress=_progress_printer(args.json))
        try:
            downloader.run()
        except KeyboardInterrupt:
            downloader.cancel()
            raise
        finally:
            if not args.json:
                sys.stderr.write("\n")
        report = store.verify()   # the downloader recorded what it verified: no second hashing
        _print_report(store, report, args.json)
        return 0 if report.ok else 1
    if args.action == "import":
        from app.engine.models.importer import import_model

        if not args.path:
            raise InputTextError(_("Give the folder to import: {command}.").format(
                command="chattts-studio models import PATH"))
        report = import_model(args.path, store.root, link=args.link)
        _print_report(store, report, args.json)
        return 0 if report.ok else 1
    from app.engine.models.importer import remove_model

    if not args.yes:
        print(_("This deletes the model files in {folder}. Run again with {option} to do it.").format(
            folder=store.root, option="--yes"), file=sys.stderr)
        return 1
    removed = remove_model(store.root)
    if args.json:
        print(json.dumps({"model": str(store.root), "removed": [str(p) for p in removed]}))
    else:
        print(ngettext("Removed {count} item from {folder}.", "Removed {count} items from {folder}.",
                       len(removed)).format(count=len(removed), folder=store.root))
    return 0
