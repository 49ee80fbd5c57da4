"""`chattts-studio models status|download|verify|import PATH|remove`."""

from __future__ import annotations

import json
import sys

from app.engine.model_sources import SOURCE_NAMES


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
    print(f"Model folder: {store.root} ({report.kind})")
    for f in report.files:
        mark = "[✓]" if f.sha256_ok else "[✗]" if f.present else "[ ]"
        state = "verified" if f.sha256_ok else "checksum mismatch" if f.present else "missing"
        print(f"  {mark} {f.relpath:<42} {f.size / 1e6:8.1f} MB  {state}")
    if report.ok:
        print("The model is complete and verified.")
    elif not any(f.present for f in report.files):
        print("There is no model here yet: get it with `chattts-studio models download` (or "
              "`chattts-studio models import PATH` for a model folder you already have).")
    else:
        print("The model is incomplete or damaged: run `chattts-studio models download` to fetch what is "
              "missing or wrong.")


def _progress_printer(as_json: bool):
    last = {"line": ""}

    def show(progress) -> None:
        if as_json:
            return
        total = progress.total_bytes or 1
        eta = f", {progress.eta_s:.0f} s left" if progress.eta_s else ""
        line = (f"\r{progress.done_bytes / 1e6:8.1f} / {total / 1e6:.1f} MB "
                f"({progress.speed_bps / 1e6:.1f} MB/s{eta})")
        if line != last["line"]:
            sys.stderr.write(line)
            sys.stderr.flush()
            last["line"] = line

    return show


def run(args) -> int:
    from app.engine.errors import InputTextError
    from app.engine.model_store import ModelStore

    store = ModelStore(args.model)
    if args.action in ("status", "verify"):
        # Always the status, also before anything was downloaded: what is missing, how to get it.
        report = store.verify(use_cache=args.action == "status")
        _print_report(store, report, args.json)
        return 0 if report.ok else 1
    if args.action == "download":
        from app.engine.model_download import ModelDownloader
        from app.engine.model_sources import make_source

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
        from app.engine.model_import import import_model

        if not args.path:
            raise InputTextError("Give the folder to import: chattts-studio models import PATH.")
        report = import_model(args.path, store.root, link=args.link)
        _print_report(store, report, args.json)
        return 0 if report.ok else 1
    from app.engine.model_import import remove_model

    if not args.yes:
        print(f"This deletes the model files in {store.root}. Run again with --yes to do it.", file=sys.stderr)
        return 1
    removed = remove_model(store.root)
    if args.json:
        print(json.dumps({"model": str(store.root), "removed": [str(p) for p in removed]}))
    else:
        print(f"Removed {len(removed)} item(s) from {store.root}.")
    return 0
