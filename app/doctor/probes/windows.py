"""Windows-only reads: registry values, DLL loads, the ANSI code page, wsl.exe."""

from __future__ import annotations

import subprocess
import sys

from app.hidden_process import run_hidden

REGISTRY_VALUES = {
    r"HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers": (
        "TdrDelay",
        "TdrDdiDelay",
        "TdrLevel",
        "TdrLimitTime",
        "TdrLimitCount",
    ),
    r"HKCU\Environment": ("Path",),
    r"HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment": ("Path",),
    r"HKLM\SYSTEM\CurrentControlSet\Control\FileSystem": ("LongPathsEnabled",),
}
LXSS_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Lxss"
# The Visual C++ 2015-2022 runtime as PyTorch imports it: torch_cpu.dll needs
# vcruntime140_threads.dll and msvcp140_atomic_wait.dll too (redistributable 14.38+; issue 37).
RUNTIME_DLLS = (
    "vcruntime140.dll",
    "vcruntime140_1.dll",
    "msvcp140.dll",
    "vcruntime140_threads.dll",
    "msvcp140_atomic_wait.dll",
)


def _open(path: str):
    import winreg

    hive_name, _, sub = path.partition("\\")
    hive = {"HKLM": winreg.HKEY_LOCAL_MACHINE, "HKCU": winreg.HKEY_CURRENT_USER}[hive_name]
    return winreg.OpenKey(hive, sub)


def read_registry() -> dict | None:
    if sys.platform != "win32":
        return None
    import winreg

    out: dict = {}
    for key_path, names in REGISTRY_VALUES.items():
        try:
            key = _open(key_path)
        except OSError:
            continue  # an absent key is absent from the snapshot
        values = {}
        with key:
            for name in names:
                try:
                    values[name] = winreg.QueryValueEx(key, name)[0]
                except OSError:
                    pass
        out[key_path] = values
    return out


def read_dlls() -> dict | None:
    if sys.platform != "win32":
        return None
    import ctypes

    found = {}
    for name in RUNTIME_DLLS:
        try:
            ctypes.WinDLL(name)
            found[name] = True
        except OSError:
            found[name] = False
    return found


def read_code_page() -> int | None:
    if sys.platform != "win32":
        return None
    import ctypes

    return int(ctypes.windll.kernel32.GetACP())


def parse_wsl_list(text: str) -> list[dict]:
    """`wsl.exe --list --verbose` output -> [{"name", "state", "version"}]."""
    distros = []
    for line in text.replace("\x00", "").splitlines()[1:]:
        parts = line.replace("*", " ").split()
        if len(parts) >= 3 and parts[-1].isdigit():
            distros.append(
                {"name": " ".join(parts[:-2]), "state": parts[-2], "version": int(parts[-1])}
            )
    return distros


def read_wsl_from_windows() -> dict:
    try:
        proc = run_hidden(["wsl.exe", "--list", "--verbose"], capture_output=True, timeout=15)
        raw = proc.stdout
        # wsl.exe writes UTF-16LE unless WSL_UTF8=1.
        text = (
            raw.decode("utf-16-le", errors="replace")
            if raw[1:2] == b"\x00"
            else raw.decode("utf-8", "replace")
        )
        if proc.returncode == 0:
            distros = parse_wsl_list(text)
            return {
                "installed": bool(distros),
                "distros": distros,
                "inside_wsl": False,
                "libcuda_paths": [],
            }
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        import winreg

        with _open(LXSS_KEY) as key:
            count = winreg.QueryInfoKey(key)[0]
            distros = []
            for i in range(count):
                with winreg.OpenKey(key, winreg.EnumKey(key, i)) as sub:
                    name = winreg.QueryValueEx(sub, "DistributionName")[0]
                    try:
                        version = winreg.QueryValueEx(sub, "Version")[0]
                    except OSError:
                        version = None
                    distros.append({"name": name, "state": None, "version": version})
        return {
            "installed": bool(distros),
            "distros": distros,
            "inside_wsl": False,
            "libcuda_paths": [],
        }
    except OSError:
        return {"installed": False, "distros": [], "inside_wsl": False, "libcuda_paths": []}
