"""The Windows bundle's DLL closure: every DLL that a .dll/.pyd/.exe of the bundle imports must
be in the bundle or be part of Windows 10 itself (installer/windows10-dlls.txt).

Run by .ci/run on the Windows wheels of the pinned versions (no Wine, no Windows):

    python installer/dll_closure.py download WHEELS     # pip download of each, win_amd64; a cache
    python installer/dll_closure.py check --wheels WHEELS

or on a built bundle (dist/ChatTTSStudio) with `check --bundle DIR`. Only load-time imports
count (the import table); delay-loaded DLLs are loaded when first called and may be absent.
A DLL counts as bundled when a file of that name is anywhere in the bundle: PyInstaller's
run-time hooks put the package folders that hold DLLs on the DLL search path.
Tests: tests/test_dll_closure.py.
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import tomllib

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SYSTEM_LIST = HERE / "windows10-dlls.txt"
PE_SUFFIXES = (".dll", ".pyd", ".exe")
# A wheel member is read into memory: refused above this (torch_cpu.dll is ~250 MB).
MAX_PE_BYTES = 2 << 30


@dataclass(frozen=True)
class Provided:
    """What needs no file in the bundle: exact names and name prefixes (API sets)."""

    names: frozenset[str]
    prefixes: tuple[str, ...]

    def __contains__(self, dll: str) -> bool:
        dll = dll.lower()
        return dll in self.names or dll.startswith(self.prefixes)


def load_provided(path: Path = SYSTEM_LIST) -> Provided:
    """The committed list: one lower-case DLL name a line, `prefix*` for a family; # comments."""
    names, prefixes = set(), []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip().lower()
        if not line:
            continue
        if line.endswith("*"):
            prefixes.append(line[:-1])
        elif re.fullmatch(r"[a-z0-9_.\-]+\.(dll|drv|sys|exe)", line):
            names.add(line)
        else:
            raise ValueError(f"{path.name}: not a DLL name: {line!r}")
    return Provided(frozenset(names), tuple(prefixes))


def pe_imports(data: bytes | None = None, path: Path | None = None) -> list[str]:
    """The DLL names in a PE file's import table (load-time imports), lower-case; from bytes
    or from a file (mapped, not read). SystemExit with one sentence for a file that is no PE."""
    import pefile

    try:
        pe = (
            pefile.PE(data=data, fast_load=True)
            if data is not None
            else pefile.PE(name=str(path), fast_load=True)
        )
    except pefile.PEFormatError as exc:
        raise SystemExit(
            f"dll_closure: {path or 'a wheel member'} is not a readable PE file: {exc}"
        ) from None
    try:
        pe.parse_data_directories(
            directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_IMPORT"]]
        )
        return [
            entry.dll.decode("ascii", "replace").lower()
            for entry in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])
        ]
    finally:
        pe.close()


def _is_pe(name: str) -> bool:
    return name.lower().endswith(PE_SUFFIXES)


def read_wheels(folder: Path) -> dict[str, list[str]]:
    """{"wheel!member": imports} for every PE file inside the wheels of a folder."""
    modules = {}
    for wheel in sorted(folder.glob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                if not _is_pe(info.filename) or info.is_dir():
                    continue
                name = f"{wheel.name}!{info.filename}"
                if info.file_size > MAX_PE_BYTES:
                    raise SystemExit(f"dll_closure: {name} is larger than {MAX_PE_BYTES >> 30} GiB")
                try:
                    modules[name] = pe_imports(zf.read(info))
                except SystemExit as exc:
                    raise SystemExit(str(exc).replace("a wheel member", name)) from None
    return modules


def without_optional(modules: dict[str, list[str]], patterns: list[str]) -> dict[str, list[str]]:
    """The modules whose imports must resolve: those matching no `optional` pattern (the path
    after "!" for a wheel member, the relative path for a bundle file)."""
    from fnmatch import fnmatchcase

    def optional(module: str) -> bool:
        path = module.split("!")[-1].replace("\\", "/")
        return any(fnmatchcase(path, p) or fnmatchcase(path, "_internal/" + p) for p in patterns)

    return {m: imports for m, imports in modules.items() if not optional(m)}


def read_bundle(folder: Path) -> dict[str, list[str]]:
    """{relative path: imports} for every PE file under a built bundle folder."""
    modules = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and _is_pe(path.name):
            modules[path.relative_to(folder).as_posix()] = pe_imports(path=path)
    return modules


def missing_dlls(
    modules: dict[str, list[str]], extra: list[str], provided: Provided, optional: list[str] = ()
) -> dict[str, list[str]]:
    """{missing DLL: [modules importing it]}: imports that are neither a file of the bundle
    (any of `modules`, or `extra`: the interpreter's and build.spec's own DLLs) nor Windows'.
    Modules matching an `optional` pattern may import what is missing."""
    present = {Path(m.split("!")[-1]).name.lower() for m in modules} | {e.lower() for e in extra}
    missing: dict[str, list[str]] = {}
    for module, imports in without_optional(modules, list(optional)).items():
        for dll in imports:
            if dll not in present and dll not in provided:
                missing.setdefault(dll, []).append(module)
    return missing


def interpreter_dlls() -> list[str]:
    """The DLLs that python.org's CPython 3.11 puts into every bundle (bundled-dlls.toml)."""
    return [n.lower() for n in _config()["interpreter"]["dlls"]]


def optional_patterns() -> list[str]:
    return list(_config()["optional"]["patterns"])


def build_spec_dlls() -> list[str]:
    """The DLLs build.spec adds itself (installer/vc_runtime.py)."""
    sys.path.insert(0, str(HERE))
    try:
        from vc_runtime import VC_RUNTIME_DLLS
    finally:
        sys.path.remove(str(HERE))
    return list(VC_RUNTIME_DLLS)


def _config() -> dict:
    return tomllib.loads((HERE / "bundled-dlls.toml").read_text(encoding="utf-8"))


# The pinned versions: the project's runtime requirements, recursively, for Windows (markers
# evaluated for win32), at the versions installed in this environment.
WINDOWS_MARKERS = {
    "sys_platform": "win32",
    "platform_system": "Windows",
    "os_name": "nt",
    "platform_machine": "AMD64",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.11",
    "python_full_version": "3.11.9",
    "extra": "",
}


def _pyinstaller_pin(project: dict) -> str:
    """The installed PyInstaller's version; where the build extra is not installed (the tests'
    environment), the range it allows (tests/test_dll_closure.py)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    try:
        return "==" + metadata.version("pyinstaller")
    except metadata.PackageNotFoundError:
        wanted = [Requirement(r) for r in project.get("optional-dependencies", {}).get("build", [])]
        return (
            next((str(r.specifier) for r in wanted if r.name.lower() == "pyinstaller"), "") or ">=0"
        )


def windows_requirements(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The runtime packages, plus PyInstaller itself (its bootloader is the bundle's .exe)
    without its own dependencies (build tools, not bundled)."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    todo = list(project["dependencies"])
    pins = {"pyinstaller": _pyinstaller_pin(project)}
    while todo:
        req = Requirement(todo.pop())
        if req.marker and not req.marker.evaluate(WINDOWS_MARKERS):
            continue
        name = canonicalize_name(req.name)
        if name in pins:
            continue
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            # A Windows-only package (colorama): the newest allowed, its own requirements unread.
            pins[name] = str(req.specifier) or ">=0"
            continue
        pins[name] = f"=={dist.version}"
        for sub in dist.requires or []:
            sub_req = Requirement(sub)
            env = dict(WINDOWS_MARKERS, extra="")
            if sub_req.marker is None or sub_req.marker.evaluate(env):
                todo.append(sub)
    return [f"{name}{pin}" for name, pin in sorted(pins.items())]


def download(requirements: list[str], folder: Path) -> list[str]:
    """The Windows wheels into `folder` (a cache: a pinned wheel already there is not asked for
    again); returns the requirements that have no wheel (sdist-only, pure Python: chattts)."""
    import subprocess

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name, parse_wheel_filename

    folder.mkdir(parents=True, exist_ok=True)
    have = set()
    for wheel in folder.glob("*.whl"):
        name, version, _, _ = parse_wheel_filename(wheel.name)
        have.add(f"{name}=={version}")
    no_wheel_file = folder / "no-windows-wheel.txt"
    no_wheel = set(no_wheel_file.read_text().split()) if no_wheel_file.is_file() else set()
    without = []
    for line in requirements:
        req = Requirement(line)
        key = f"{canonicalize_name(req.name)}{req.specifier}"
        if key in have or key in no_wheel:
            without += [line] if key in no_wheel else []
            continue
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--only-binary=:all:",
                "--platform",
                "win_amd64",
                "--python-version",
                "3.11",
                "--no-deps",
                "-d",
                str(folder),
                line,
            ],
            capture_output=True,
            text=True,
        )
        if result.returncode != 0:
            if "No matching distribution" not in result.stderr:
                raise SystemExit(
                    f"dll_closure: pip download {line} failed: "
                    f"{result.stderr.strip().splitlines()[-1:]}"
                )
            without.append(line)
            if "==" in line:  # pinned: the answer cannot change
                no_wheel.add(key)
                no_wheel_file.write_text("\n".join(sorted(no_wheel)) + "\n")
    return without


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dll_closure", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("requirements", help="name==version of every Windows runtime package")
    fetch = sub.add_parser("download", help="their win_amd64 wheels into a (cache) folder")
    fetch.add_argument("folder", type=Path)
    check = sub.add_parser(
        "check", help="fail when an imported DLL is neither bundled nor Windows'"
    )
    where = check.add_mutually_exclusive_group(required=True)
    where.add_argument("--wheels", type=Path, help="folder of downloaded win_amd64 wheels")
    where.add_argument("--bundle", type=Path, help="a built bundle folder (dist/ChatTTSStudio)")
    args = parser.parse_args(argv)

    if args.command == "requirements":
        print("\n".join(windows_requirements()))
        return 0
    if args.command == "download":
        without = download(windows_requirements(), args.folder)
        print(
            f"dll_closure: no Windows wheel (pure Python, built from source): {' '.join(without)}"
        )
        return 0
    folder = args.wheels or args.bundle
    if not folder.is_dir():
        print(f"dll_closure: {folder} is not a folder", file=sys.stderr)
        return 2
    if args.wheels:
        modules = read_wheels(folder)
        extra = interpreter_dlls() + build_spec_dlls()
    else:
        modules, extra = read_bundle(folder), []
    if not modules:
        print(f"dll_closure: no .dll, .pyd or .exe in {folder}", file=sys.stderr)
        return 2
    missing = missing_dlls(modules, extra, load_provided(), optional_patterns())
    for dll, importers in sorted(missing.items()):
        print(
            f"dll_closure: {dll} is imported by {', '.join(importers[:3])}"
            f"{' and others' if len(importers) > 3 else ''} but is neither in the bundle "
            "nor part of Windows 10",
            file=sys.stderr,
        )
    if missing:
        return 1
    print(f"dll_closure: {len(modules)} PE files, every imported DLL is in the bundle or Windows'")
    return 0


if __name__ == "__main__":
    sys.exit(main())
