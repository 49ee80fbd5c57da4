"""path_entries: duplicate or missing PATH folders, several CUDA versions, CUDA_PATH mismatch."""

import re

from app.doctor.result import Verdict

ID, TITLE = "path_entries", "PATH entries"
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
    versions = sorted({ver for _, ver in cuda_bins})
    problems, fixes = [], []
    if len(versions) > 1:
        problems.append(f"several CUDA toolkits are on PATH ({', '.join('v' + x for x in versions)}); "
                        f"the first, v{cuda_bins[0][1]}, wins")
        fixes.append("Keep only the CUDA bin folder you use on PATH (PyTorch brings its own CUDA, "
                     "so none is needed for ChatTTS Studio).")
    cuda_path = s.env("CUDA_PATH")
    if cuda_bins and cuda_path:
        match = re.search(r"v(\d+\.\d+)", cuda_path)
        if match and match.group(1) != cuda_bins[0][1]:
            problems.append(f"CUDA_PATH points to v{match.group(1)} but PATH finds v{cuda_bins[0][1]} first")
            fixes.append("Set CUDA_PATH and the first CUDA bin folder on PATH to the same version.")
    details = "; ".join(filter(None, [
        f"Duplicates: {', '.join(dups)}" if dups else "",
        f"Missing folders: {', '.join(missing)}" if missing else "",
        f"CUDA bin folders: {', '.join(e for e, _ in cuda_bins)}" if cuda_bins else ""]))
    if problems:
        return v.warn(problems[0][0].upper() + problems[0][1:] + ".", details, " ".join(fixes))
    if dups or missing:
        what = " and ".join(filter(None, [f"{len(dups)} duplicate" if dups else "",
                                           f"{len(missing)} missing" if missing else ""]))
        where = ("the Environment Variables editor (Start > 'Edit the system environment variables')"
                 if s.is_windows else "the shell profile that sets PATH (~/.profile, ~/.bashrc)")
        return v.warn(f"PATH has {what} folder(s); harmless for ChatTTS, but it makes PATH longer.",
                      details, f"Remove the duplicate and missing entries in {where}.")
    return v.ok(f"PATH has {len(entries)} entries, no duplicates or missing folders.", details)
