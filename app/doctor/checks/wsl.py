"""wsl: WSL distributions (from Windows), or a Linux driver shadowing WSL's libcuda (inside)."""

from app.doctor.result import Verdict

ID, TITLE = "wsl", "WSL"
WSL_LIB = "/usr/lib/wsl/lib/"


def check(s):
    v = Verdict(ID, TITLE)
    w = s.get("wsl")
    if w is None:
        return v.unreadable("the WSL state")
    if w.get("inside_wsl"):
        paths = list(w.get("libcuda_paths") or [])
        if not paths:
            return v.warn("Inside WSL, but no libcuda.so is found: CUDA cannot work here.",
                          fix="Install or update the NVIDIA driver on Windows (not inside WSL), then run `wsl --shutdown`.")
        first = paths[0]
        if not first.startswith(WSL_LIB):
            return v.fail("A Linux NVIDIA driver inside WSL shadows the Windows driver, which breaks CUDA.",
                          details="libcuda.so search order: " + ", ".join(paths),
                          fix="Remove the Linux driver inside WSL (e.g. `sudo apt remove --purge "
                              "'nvidia-driver-*' 'libnvidia-compute-*'`), keep only the Windows driver, "
                              "then run `wsl --shutdown` from Windows.")
        return v.ok("Inside WSL, CUDA comes from the Windows driver as it should.", details=first)
    if not s.is_windows:
        return v.skip("Not Windows and not inside WSL.")
    distros = w.get("distros") or []
    if not w.get("installed") or not distros:
        return v.ok("WSL is not installed; nothing can conflict.")
    listing = ", ".join(f"{d.get('name')} (WSL{d.get('version') or '?'})" for d in distros)
    return v.ok(f"WSL distributions: {listing}. This program uses the Windows driver and CUDA, not WSL's.",
                details="A CUDA toolkit inside WSL and one on Windows are separate; only the Windows one matters here.")
