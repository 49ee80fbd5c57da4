"""The Windows bundle's DLL closure (installer/dll_closure.py, issue 37): every DLL a bundled
.dll/.pyd/.exe imports is in the bundle or part of Windows 10. .ci/run runs the check on the
real Windows wheels; these tests hold its logic on tiny PE files built in memory."""

import ast
import sys
import zipfile
from pathlib import Path

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "installer"))
import dll_closure  # noqa: E402
import vc_runtime  # noqa: E402

from tests.support.tiny_pe import pe_importing  # noqa: E402


def _wheel(folder: Path, name: str, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(folder / name, "w") as zf:
        for member, data in members.items():
            zf.writestr(member, data)


@pytest.fixture
def wheels(tmp_path):
    """torch_cpu.dll as the torch wheel has it: it imports vcruntime140_threads.dll, which no
    wheel carries; msvcp140.dll comes with PySide6."""
    _wheel(
        tmp_path,
        "torch-2.14.1-cp311-cp311-win_amd64.whl",
        {
            "torch/lib/torch_cpu.dll": pe_importing(
                "KERNEL32.dll",
                "VCRUNTIME140_THREADS.dll",
                "MSVCP140.dll",
                "api-ms-win-crt-heap-l1-1-0.dll",
            ),
            "torch/_C.cp311-win_amd64.pyd": pe_importing("python311.dll", "torch_cpu.dll"),
        },
    )
    _wheel(
        tmp_path,
        "pyside6_essentials-6.12.0-cp310-abi3-win_amd64.whl",
        {
            "PySide6/msvcp140.dll": pe_importing("KERNEL32.dll", "VCRUNTIME140.dll"),
            "PySide6/plugins/sqldrivers/qsqlpsql.dll": pe_importing("LIBPQ.dll"),
            "PySide6/README.txt": b"not a PE file",
        },
    )
    return tmp_path


def test_import_table_is_read_from_a_pe_file():
    assert dll_closure.pe_imports(pe_importing("KERNEL32.dll", "Foo.DLL")) == [
        "kernel32.dll",
        "foo.dll",
    ]
    assert dll_closure.pe_imports(pe_importing()) == []


def test_the_check_passes_with_what_build_spec_adds(wheels, capsys):
    assert "vcruntime140_threads.dll" in vc_runtime.VC_RUNTIME_DLLS
    assert dll_closure.main(["check", "--wheels", str(wheels)]) == 0
    assert "4 PE files" in capsys.readouterr().out  # README.txt is no PE file


def test_the_check_fails_when_vcruntime140_threads_is_not_bundled(wheels, capsys, monkeypatch):
    monkeypatch.setattr(vc_runtime, "VC_RUNTIME_DLLS", ("msvcp140_atomic_wait.dll",))
    assert dll_closure.main(["check", "--wheels", str(wheels)]) == 1
    err = capsys.readouterr().err
    assert (
        "vcruntime140_threads.dll is imported by torch-2.14.1-cp311-cp311-win_amd64.whl!torch/lib/torch_cpu.dll"
        in err
    )
    assert err.count("dll_closure:") == 1  # nothing else is missing


def test_an_import_outside_the_optional_files_fails(wheels, capsys):
    _wheel(
        wheels,
        "extra-1.0-cp311-cp311-win_amd64.whl",
        {"extra/core.pyd": pe_importing("libpq.dll", "python311.dll")},
    )
    assert dll_closure.main(["check", "--wheels", str(wheels)]) == 1
    assert "libpq.dll is imported by extra-1.0" in capsys.readouterr().err


def test_a_built_bundle_is_checked_by_its_own_files(tmp_path, capsys):
    internal = tmp_path / "_internal"
    (internal / "torch" / "lib").mkdir(parents=True)
    (tmp_path / "chattts-studio.exe").write_bytes(pe_importing("KERNEL32.dll", "python311.dll"))
    (internal / "python311.dll").write_bytes(pe_importing("KERNEL32.dll", "VCRUNTIME140.dll"))
    (internal / "VCRUNTIME140.dll").write_bytes(pe_importing("KERNEL32.dll"))
    (internal / "torch" / "lib" / "torch_cpu.dll").write_bytes(
        pe_importing("KERNEL32.dll", "VCRUNTIME140_THREADS.dll")
    )
    assert dll_closure.main(["check", "--bundle", str(tmp_path)]) == 1
    assert (
        "vcruntime140_threads.dll is imported by _internal/torch/lib/torch_cpu.dll"
        in capsys.readouterr().err
    )
    (internal / "VCRUNTIME140_THREADS.dll").write_bytes(pe_importing("KERNEL32.dll"))
    assert dll_closure.main(["check", "--bundle", str(tmp_path)]) == 0


def test_the_windows_list_names_its_sources_and_leaves_out_the_vc_runtime():
    text = dll_closure.SYSTEM_LIST.read_text(encoding="utf-8")
    assert "Sources:" in text and "KnownDLLs" in text and "API set" in text
    provided = dll_closure.load_provided()
    assert "api-ms-win-crt-runtime-l1-1-0.dll" in provided and "KERNEL32.dll" in provided
    for dll in (
        "vcruntime140.dll",
        "vcruntime140_1.dll",
        "vcruntime140_threads.dll",
        "msvcp140.dll",
        "msvcp140_atomic_wait.dll",
        "vcomp140.dll",
        "python311.dll",
    ):
        assert dll not in provided, dll


def test_a_malformed_list_line_is_refused(tmp_path):
    bad = tmp_path / "list.txt"
    bad.write_text("kernel32.dll\nnot a name\n")
    with pytest.raises(ValueError, match="not a DLL name"):
        dll_closure.load_provided(bad)


def test_windows_requirements_are_pinned_and_follow_windows_markers():
    from importlib import metadata

    reqs = dll_closure.windows_requirements()
    assert f"torch=={metadata.version('torch')}" in reqs
    assert any(r.startswith("pyinstaller") for r in reqs)
    names = {r.split("=")[0].split(">")[0] for r in reqs}
    assert "colorama" in names  # tqdm's, on Windows only
    assert not {n for n in names if n.startswith("nvidia-cu") or n == "triton"}  # Linux only
    assert "cn2an" not in names and "pytest" not in names


def test_pyinstaller_is_pinned_to_the_installed_one_or_the_build_extras_range(monkeypatch):
    """The tests' environment has no build extra: PyInstaller's range then comes from pyproject."""
    from importlib import metadata

    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "6.99.1" if name == "pyinstaller" else real(name)
    )
    assert "pyinstaller==6.99.1" in dll_closure.windows_requirements()

    def not_installed(name):
        if name == "pyinstaller":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["build"]
    wanted = next(r for r in build if r.lower().startswith("pyinstaller"))
    assert (
        "pyinstaller" + wanted[len("pyinstaller") :].strip() in dll_closure.windows_requirements()
    )


# The DLLs themselves: build.spec bundles the copies found at build time.


def test_build_spec_passes_the_vc_runtime_to_pyinstaller():
    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    analysis = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Analysis"
    )
    binaries = {kw.arg: kw.value for kw in analysis.keywords}["binaries"]
    assert isinstance(binaries, ast.Call) and binaries.func.id == "bundle_binaries"


def test_the_vc_runtime_is_found_in_the_interpreter_folder_before_system32(tmp_path):
    prefix, windows = tmp_path / "python", tmp_path / "Windows"
    (prefix / "Scripts").mkdir(parents=True)
    (windows / "System32").mkdir(parents=True)
    for name in vc_runtime.VC_RUNTIME_DLLS:
        (windows / "System32" / name).write_bytes(pe_importing("KERNEL32.dll"))
    (prefix / "vcruntime140_threads.dll").write_bytes(pe_importing("KERNEL32.dll"))
    found = vc_runtime.find_vc_runtime(vc_runtime.search_dirs([str(prefix)], str(windows)))
    assert found == [
        (str(prefix / "vcruntime140_threads.dll"), "."),
        (str(windows / "System32" / "msvcp140_atomic_wait.dll"), "."),
    ]


def test_wine_builtins_are_never_bundled_and_a_missing_dll_stops_the_build(tmp_path):
    fake = bytearray(pe_importing("KERNEL32.dll"))
    fake[0x40:0x50] = b"Wine builtin DLL"  # where Wine marks its own DLLs
    (tmp_path / "vcruntime140_threads.dll").write_bytes(bytes(fake))
    (tmp_path / "msvcp140_atomic_wait.dll").write_bytes(pe_importing("KERNEL32.dll"))
    with pytest.raises(SystemExit, match=r"vcruntime140_threads\.dll not found in .*msvc-runtime"):
        vc_runtime.find_vc_runtime([tmp_path])


def test_a_file_that_is_no_pe_stops_the_check_with_its_name(tmp_path):
    (tmp_path / "broken.dll").write_bytes(b"MZ not really")
    with pytest.raises(SystemExit, match=r"broken\.dll is not a readable PE file"):
        dll_closure.main(["check", "--bundle", str(tmp_path)])
    _wheel(tmp_path, "bad-1.0-py3-none-win_amd64.whl", {"bad/x.pyd": b"\0" * 64})
    with pytest.raises(
        SystemExit, match=r"bad-1\.0-py3-none-win_amd64\.whl!bad/x\.pyd is not a readable PE"
    ):
        dll_closure.main(["check", "--wheels", str(tmp_path)])
