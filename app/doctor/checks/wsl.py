"""wsl: WSL distributions (from Windows), or a Linux driver shadowing WSL's libcuda (inside)."""

from app.doctor.result import Verdict
from app.i18n import N_, _

ID, TITLE = "wsl", N_("WSL")
WSL_LIB = "/usr/lib/wsl/lib/"
REMOVE_LINUX_DRIVER = "sudo apt remove --purge 'nvidia-driver-*' 'libnvidia-compute-*'"


def check(s):
    v = Verdict(ID, TITLE)
    w = s.get("wsl")
    if w is None:
        return v.unreadable(_("the WSL state"))
    if w.get("inside_wsl"):
        paths = list(w.get("libcuda_paths") or [])
        if not paths:
            return v.warn(
                _("Inside WSL, but no libcuda.so is found: CUDA cannot work here."),
                fix=_(
                    "Install or update the NVIDIA driver on Windows (not inside WSL), then run "
                    "`{command}`."
                ).format(command="wsl --shutdown"),
            )
        first = paths[0]
        if not first.startswith(WSL_LIB):
            return v.fail(
                _(
                    "A Linux NVIDIA driver inside WSL shadows the Windows driver, which breaks CUDA."
                ),
                details=_("libcuda.so search order: {paths}").format(paths=", ".join(paths)),
                fix=_(
                    "Remove the Linux driver inside WSL (e.g. `{remove}`), keep only the Windows "
                    "driver, then run `{shutdown}` from Windows."
                ).format(remove=REMOVE_LINUX_DRIVER, shutdown="wsl --shutdown"),
            )
        return v.ok(
            _("Inside WSL, CUDA comes from the Windows driver as it should."), details=first
        )
    if not s.is_windows:
        return v.not_applicable(_("Not Windows and not inside WSL."))
    distros = w.get("distros") or []
    if not w.get("installed") or not distros:
        return v.ok(_("WSL is not installed; nothing can conflict."))
    listing = ", ".join(f"{d.get('name')} (WSL{d.get('version') or '?'})" for d in distros)
    return v.ok(
        _(
            "WSL distributions: {listing}. This program uses the Windows driver and CUDA, not "
            "WSL's."
        ).format(listing=listing),
        details=_(
            "A CUDA toolkit inside WSL and one on Windows are separate; only the Windows one "
            "matters here."
        ),
    )
