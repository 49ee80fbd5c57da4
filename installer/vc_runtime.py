"""The Visual C++ runtime DLLs the bundle must carry itself (build.spec adds them).

PyInstaller collects DLLs from System32 only on its fixed list, which lacks
vcruntime140_threads.dll; torch_cpu.dll imports it and Windows 10 does not ship it (it comes
with the VC++ 2022 redistributable 14.38+ only), so without our own copy `import torch` fails
with WinError 126 on a PC without that redistributable (issue 37; tests/test_dll_closure.py).
"""

from __future__ import annotations

import os
from pathlib import Path

# Imported by the bundle's DLLs, redistributable (VC143.CRT), not part of Windows 10.
VC_RUNTIME_DLLS = ("vcruntime140_threads.dll", "msvcp140_atomic_wait.dll")

# Wine's own DLLs carry this text right after the DOS stub; they must never be bundled.
_WINE_MARK = b"Wine builtin DLL"


def is_wine_builtin(path: Path) -> bool:
    with open(path, "rb") as f:
        return _WINE_MARK in f.read(0x100)


def search_dirs(prefixes: list[str], system_root: str | None) -> list[Path]:
    """Where a build finds the DLLs: the interpreter's folders first (the PyPI wheel
    `msvc-runtime` puts them there), then System32 (a Windows machine with the redistributable,
    such as GitHub's runner)."""
    dirs = []
    for prefix in prefixes:
        dirs += [Path(prefix), Path(prefix) / "Scripts", Path(prefix) / "DLLs"]
    if system_root:
        dirs.append(Path(system_root) / "System32")
    return dirs


def find_vc_runtime(dirs: list[Path]) -> list[tuple[str, str]]:
    """PyInstaller `binaries` entries (source, ".") for VC_RUNTIME_DLLS; SystemExit with one
    sentence naming what is missing, so a bundle never ships without them."""
    found, missing = [], []
    for name in VC_RUNTIME_DLLS:
        for d in dirs:
            path = d / name
            if path.is_file() and not is_wine_builtin(path):
                found.append((str(path), "."))
                break
        else:
            missing.append(name)
    if missing:
        raise SystemExit(
            f"build.spec: {', '.join(missing)} not found in {', '.join(str(d) for d in dirs)}: "
            "install the Visual C++ 2022 redistributable (14.38 or later) or "
            "`pip install msvc-runtime` into the build environment."
        )
    return found


def bundle_binaries() -> list[tuple[str, str]]:
    """What build.spec passes to Analysis(binaries=...) on Windows (nothing elsewhere)."""
    if os.name != "nt":
        return []
    import sys

    prefixes = list(dict.fromkeys([sys.prefix, sys.base_prefix]))
    return find_vc_runtime(search_dirs(prefixes, os.environ.get("SystemRoot")))
