"""path_entries: duplicate or missing PATH folders, several CUDA versions, CUDA_PATH mismatch."""

import re

from app.doctor.result import Verdict
from app.i18n import N_, _, join_clauses, join_sentences

ID, TITLE = "path_entries", N_("PATH entries")
CUDA_BIN = re.compile(r"CUDA[\\/]v(\d+\.\d+)[\\/]bin[\\/]?$", re.I)


def _norm(entry: str, windows: bool) -> str:
    entry = entry.strip().rstrip("\\/")
    return entry.lower() if windows else entry


def check(s):
    v = Verdict(ID, TITLE)
    path = s.env("PATH")
    if path is None:
        return v.unreadable("PATH")
    sep = ";" if s.is_windows else ":"
    entries = [e for e in path.split(sep) if e.strip()]
    seen, dups = set(), []
    for e in entries:
        key = _norm(e, s.is_windows)
        if key in seen and e not in dups:
            dups.append(e)
        seen.add(key)
    missing = list(s.get("path_missing") or [])
    cuda_bins = [(e, CUDA_BIN.search(e).group(1)) for e in entries if CUDA_BIN.search(e)]
    versions = sorted({ver for _e, ver in cuda_bins})
    problems, fixes = [], []
    if len(versions) > 1:
        problems.append(
            _("Several CUDA toolkits are on PATH ({versions}); the first, v{first}, wins.").format(
                versions=", ".join("v" + x for x in versions), first=cuda_bins[0][1]
            )
        )
        fixes.append(
            _(
                "Keep only the CUDA bin folder you use on PATH (PyTorch brings its own CUDA, so none "
                "is needed for ChatTTS Studio)."
            )
        )
    cuda_path = s.env("CUDA_PATH")
    if cuda_bins and cuda_path:
        match = re.search(r"v(\d+\.\d+)", cuda_path)
        if match and match.group(1) != cuda_bins[0][1]:
            problems.append(
                _("CUDA_PATH points to v{cuda_path} but PATH finds v{first} first.").format(
                    cuda_path=match.group(1), first=cuda_bins[0][1]
                )
            )
            fixes.append(
                _("Set CUDA_PATH and the first CUDA bin folder on PATH to the same version.")
            )
    details = join_clauses(
        [
            _("Duplicates: {entries}").format(entries=", ".join(dups)) if dups else "",
            _("Missing folders: {entries}").format(entries=", ".join(missing)) if missing else "",
            _("CUDA bin folders: {entries}").format(entries=", ".join(e for e, _v in cuda_bins))
            if cuda_bins
            else "",
        ]
    )
    if problems:
        return v.warn(problems[0], details, join_sentences(fixes))
    if dups or missing:
        where = (
            _("the Environment Variables editor (Start > 'Edit the system environment variables')")
            if s.is_windows
            else _("the shell profile that sets PATH (~/.profile, ~/.bashrc)")
        )
        if dups and missing:
            summary = _(
                "PATH has {duplicate} duplicate and {missing} missing folder(s); harmless for ChatTTS, "
                "but it makes PATH longer."
            ).format(duplicate=len(dups), missing=len(missing))
        elif dups:
            summary = _(
                "PATH has {duplicate} duplicate folder(s); harmless for ChatTTS, but it makes PATH "
                "longer."
            ).format(duplicate=len(dups))
        else:
            summary = _(
                "PATH has {missing} missing folder(s); harmless for ChatTTS, but it makes PATH "
                "longer."
            ).format(missing=len(missing))
        return v.warn(
            summary,
            details,
            _("Remove the duplicate and missing entries in {where}.").format(where=where),
        )
    return v.ok(
        _("PATH has {count} entries, no duplicates or missing folders.").format(count=len(entries)),
        details,
    )
