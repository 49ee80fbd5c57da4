"""vc_runtime: the Visual C++ runtime DLLs PyTorch needs are present."""

from app.doctor.facts import VC_REDIST_URL
from app.doctor.result import Verdict

ID, TITLE = "vc_runtime", "Visual C++ runtime"


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.skip("The Visual C++ runtime is a Windows component.")
    dlls = s.get("dlls")
    if dlls is None:
        return v.unreadable("the runtime DLLs")
    missing = sorted(name for name, ok in dlls.items() if not ok)
    if missing:
        return v.fail(f"Missing {', '.join(missing)}: PyTorch cannot load without them.",
                      fix=f"Install the Visual C++ 2015-2022 x64 redistributable from {VC_REDIST_URL}, then restart.")
    return v.ok("The Visual C++ runtime is installed.")
