"""disk_space: room on the model folder's drive for the model (about 1.2 GB)."""

from app.doctor import facts
from app.doctor.result import Verdict

ID, TITLE = "disk_space", "Disk space"


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def check(s):
    v = Verdict(ID, TITLE)
    free = s.at("disk_free_bytes", "models")
    if free is None:
        return v.unreadable("the free space on the model drive")
    model = s.get("model") or {}
    complete = bool(model.get("files")) and len(model.get("files", {})) >= len(model.get("expected") or [0] * 9)
    if complete:
        return v.ok(f"{_gb(free)} free on the model drive (the model is already there).")
    need = facts.MODEL_DOWNLOAD_BYTES
    if free < need:
        return v.fail(f"Only {_gb(free)} free on the model drive; the model needs {_gb(need)}.",
                      fix="Free some space or choose a model folder on another drive.")
    if free < need + facts.DISK_MARGIN_BYTES:
        return v.warn(f"{_gb(free)} free: enough for the model ({_gb(need)}) but little else.",
                      fix="Free some space before downloading, or use another drive.")
    return v.ok(f"{_gb(free)} free on the model drive.")
