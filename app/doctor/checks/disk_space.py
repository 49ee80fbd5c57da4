"""disk_space: room on the model folder's drive for the model (about 1.2 GB)."""

from app.doctor import facts
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "disk_space", N_("Disk space")


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def check(s):
    v = Verdict(ID, TITLE)
    free = s.at("disk_free_bytes", "models")
    if free is None:
        return v.unreadable(_("the free space on the model drive"))
    model = s.get("model") or {}
    complete = bool(model.get("files")) and len(model.get("files", {})) >= len(
        model.get("expected") or [0] * 9
    )
    if complete:
        return v.ok(
            _("{free} free on the model drive (the model is already there).").format(free=_gb(free))
        )
    need = facts.OFFICIAL_MODEL_BYTES
    if free < need:
        return v.fail(
            _("Only {free} free on the model drive; the model needs {need}.").format(
                free=_gb(free), need=_gb(need)
            ),
            fix=_("Free some space or choose a model folder on another drive."),
        )
    if free < need + facts.DISK_MARGIN_BYTES:
        return v.warn(
            _("{free} free: enough for the model ({need}) but little else.").format(
                free=_gb(free), need=_gb(need)
            ),
            fix=_("Free some space before downloading, or use another drive."),
        )
    return v.ok(_("{free} free on the model drive.").format(free=_gb(free)))
