"""How the models subcommands show a model folder's state and a download's progress."""

from __future__ import annotations

import json
import sys

from app.i18n import N_, _
from app.paths import MODEL_DIR_ENV

DOWNLOAD = "chattts-studio models download"
VERIFIED, MISMATCH, MISSING = N_("verified"), N_("checksum mismatch"), N_("missing")


def report_dict(store, report, choice=None) -> dict:
    found = {
        "model": str(store.root),
        "kind": report.kind,
        "ok": report.ok,
        "missing": report.missing,
        "bad": report.bad,
        "files": [
            {"path": f.relpath, "present": f.present, "size": f.size, "sha256_ok": f.sha256_ok}
            for f in report.files
        ],
    }
    if choice is not None:
        from app.user_settings import settings_file

        found["model_source"] = choice.source.value
        found["settings_file"] = str(settings_file())
    return found


def chosen_by(choice) -> str:
    """Where the model folder setting came from, in words (`models status`)."""
    from app.user_settings import ModelDirSource, settings_file

    if choice.source is ModelDirSource.OPTION:
        return _("This folder was given with {option}.").format(option="--model")
    if choice.source is ModelDirSource.ENVIRONMENT:
        return _("This folder comes from the {variable} environment variable.").format(
            variable=MODEL_DIR_ENV
        )
    if choice.source is ModelDirSource.SAVED:
        return _("This folder was chosen in the window and is saved in {file}.").format(
            file=settings_file()
        )
    return _(
        "This is the default folder; choose another in the window (Model > Choose model folder), "
        "with {option} or with the {variable} environment variable."
    ).format(option="--model", variable=MODEL_DIR_ENV)


def print_report(store, report, as_json: bool, choice=None) -> int:
    """The folder's table (or JSON); the exit code: 0 when the model is complete and verified.
    `choice`: the model folder setting, to say where the folder came from."""
    if as_json:
        print(json.dumps(report_dict(store, report, choice), ensure_ascii=False))
        return 0 if report.ok else 1
    print(_("Model folder: {folder} ({kind})").format(folder=store.root, kind=report.kind))
    if choice is not None:
        print("  " + chosen_by(choice))
    for f in report.files:
        mark = "[✓]" if f.sha256_ok else "[✗]" if f.present else "[ ]"
        state = _(VERIFIED if f.sha256_ok else MISMATCH if f.present else MISSING)
        print(f"  {mark} {f.relpath:<42} {f.size / 1e6:8.1f} MB  {state}")
    if report.ok:
        print(_("The model is complete and verified."))
    elif not any(f.present for f in report.files):
        print(
            _(
                "There is no model here yet: get it with `{download}` (or `{import_command}` for a model "
                "folder you already have)."
            ).format(download=DOWNLOAD, import_command="chattts-studio models import PATH")
        )
    else:
        print(
            _(
                "The model is incomplete or damaged: run `{download}` to fetch what is missing or wrong."
            ).format(download=DOWNLOAD)
        )
    return 0 if report.ok else 1


def progress_printer(as_json: bool):
    last = {"line": ""}

    def show(progress) -> None:
        if as_json:
            return
        total = progress.total_bytes or 1
        sizes = dict(
            done=f"{progress.done_bytes / 1e6:8.1f}",
            total=f"{total / 1e6:.1f}",
            speed=f"{progress.speed_bps / 1e6:.1f}",
        )
        if progress.eta_s:
            line = _("{done} / {total} MB ({speed} MB/s, {eta} s left)").format(
                eta=f"{progress.eta_s:.0f}", **sizes
            )
        else:
            line = _("{done} / {total} MB ({speed} MB/s)").format(**sizes)
        line = "\r" + line
        if line != last["line"]:
            sys.stderr.write(line)
            sys.stderr.flush()
            last["line"] = line

    return show
