"""vc_runtime: the Visual C++ runtime DLLs PyTorch needs are present."""

from app.doctor.facts import VC_REDIST_URL
from app.doctor.probes.windows import RUNTIME_DLLS
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "vc_runtime", N_("Visual C++ runtime")


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.not_applicable(_("The Visual C++ runtime is a Windows component."))
    dlls = s.get("dlls")
    if dlls is None:
        return v.unreadable(_("the runtime DLLs"))
    missing = sorted(name for name, ok in dlls.items() if not ok)
    if not missing and not set(RUNTIME_DLLS) <= set(dlls):
        return v.unreadable(_("the runtime DLLs"))  # a snapshot that did not probe them all
    if missing:
        return v.fail(
            _("Missing {dlls}: PyTorch cannot load without them.").format(dlls=", ".join(missing)),
            fix=_(
                "Install the Visual C++ 2015-2022 x64 redistributable from {url}, then restart."
            ).format(url=VC_REDIST_URL),
        )
    return v.ok(_("The Visual C++ runtime is installed."))
