"""tdr: the Windows GPU timeout (TDR) is long enough for a long synthesis kernel."""

from app.doctor import facts
from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "tdr", N_("GPU timeout (TDR)")
KEY = r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers"


def fix() -> str:
    return _(
        "Microsoft advises programs not to change this, so ChatTTS Studio will not. To do it yourself: "
        "run regedit as administrator, open {key}, create the DWORD values TdrDelay and TdrDdiDelay "
        "with the decimal value {value}, then restart Windows."
    ).format(key=KEY, value=facts.TDR_RECOMMENDED)


def check(s):
    v = Verdict(ID, TITLE)
    if not s.is_windows:
        return v.not_applicable(_("TDR is a Windows display-driver setting."))
    if not s.gpus:
        return v.skip(_("No NVIDIA GPU found."))
    if all(g.get("driver_model") == "TCC" for g in s.gpus):
        return v.skip(_("The GPU runs in TCC mode, where TDR does not apply."))
    registry = s.get("registry")
    if registry is None:
        return v.unreadable(_("the registry"))
    values = registry.get(KEY) or {}
    level = values.get("TdrLevel", 3)
    delay = values.get("TdrDelay", facts.TDR_DEFAULT_DELAY)
    ddi = values.get("TdrDdiDelay", facts.TDR_DEFAULT_DDI_DELAY)
    details = _(
        "TdrLevel {level}, TdrDelay {delay} s, TdrDdiDelay {ddi} s (absent values are defaults)."
    ).format(level=level, delay=delay, ddi=ddi)
    if level == 0:
        return v.ok(_("GPU timeout detection is off (TdrLevel 0)."), details)
    if delay < 10:
        return v.warn(
            _(
                "Windows resets the GPU after {delay} s without an answer; a long synthesis step can "
                "trigger 'Display driver stopped responding' and CUDA error 702."
            ).format(delay=delay),
            details,
            fix(),
        )
    return v.ok(_("The GPU timeout is {delay} s.").format(delay=delay), details)
