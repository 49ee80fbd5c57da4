"""tdr: the Windows GPU timeout (TDR) is long enough for a long synthesis kernel."""

from app.doctor import facts
from app.doctor.result import Verdict

ID, TITLE = "tdr", "GPU timeout (TDR)"
KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"
FIX = ("Microsoft advises programs not to change this, so ChatTTS Studio will not. To do it "
       "yourself: run regedit as administrator, open " + KEY + ", create the DWORD values "
       f"TdrDelay and TdrDdiDelay with the decimal value {facts.TDR_RECOMMENDED}, then restart Windows.")


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.skip("TDR is a Windows display-driver setting.")
    if not s.gpus:
        return v.skip("No NVIDIA GPU found.")
    if all(g.get("driver_model") == "TCC" for g in s.gpus):
        return v.skip("The GPU runs in TCC mode, where TDR does not apply.")
    registry = s.get("registry")
    if registry is None:
        return v.unreadable("the registry")
    values = registry.get(KEY) or {}
    level = values.get("TdrLevel", 3)
    delay = values.get("TdrDelay", facts.TDR_DEFAULT_DELAY)
    ddi = values.get("TdrDdiDelay", facts.TDR_DEFAULT_DDI_DELAY)
    details = f"TdrLevel {level}, TdrDelay {delay} s, TdrDdiDelay {ddi} s (absent values are defaults)."
    if level == 0:
        return v.ok("GPU timeout detection is off (TdrLevel 0).", details)
    if delay < 10:
        return v.warn(f"Windows resets the GPU after {delay} s without an answer; a long synthesis step "
                      "can trigger 'Display driver stopped responding' and CUDA error 702.", details, FIX)
    return v.ok(f"The GPU timeout is {delay} s.", details)
