"""The Windows build files, checked here because no Windows machine runs our tests: the
installer script's inputs exist in the repository, its slices fit a release asset, the
bundle runs in UTF-8 mode (issue 18). The workflows' schema and audit are checked with the
other workflows' in tests/checks/test_workflows.py."""

import ast
import re
import struct
from pathlib import Path, PureWindowsPath

import tomllib

ROOT = Path(__file__).resolve().parents[1]
ISS = ROOT / "installer" / "ChatTTSStudio.iss"
WORKFLOW = ROOT / ".github" / "workflows" / "windows.yml"
RELEASE_ASSET_LIMIT = 2 * 1024**3
# Files given to ISCC by these [Setup] directives or [Languages]/[Files] parameters.
FILE_DIRECTIVES = (
    "SetupIconFile",
    "LicenseFile",
    "InfoBeforeFile",
    "InfoAfterFile",
    "WizardImageFile",
    "WizardSmallImageFile",
)


def _iss_lines() -> list[str]:
    return [
        line.strip()
        for line in ISS.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.strip().startswith(";")
    ]


def _referenced_files() -> list[str]:
    refs = []
    for line in _iss_lines():
        directive = re.match(r"(\w+)=(.+)$", line)
        if directive and directive.group(1) in FILE_DIRECTIVES:
            refs.append(directive.group(2).strip().strip('"'))
        for param in re.finditer(
            r'\b(MessagesFile|Source|LicenseFile|InfoBeforeFile|InfoAfterFile):\s*"([^"]+)"', line
        ):
            refs.extend(p.strip() for p in param.group(2).split(","))
        include = re.match(r'#include\s+"([^"]+)"', line)
        if include:
            refs.append(include.group(1))
    return refs


def test_every_file_the_installer_script_uses_is_in_the_repository():
    refs = _referenced_files()
    assert any(r.endswith("ChineseSimplified.isl") for r in refs)
    assert any(r.endswith("app.ico") for r in refs)
    missing = []
    for ref in refs:
        if ref.startswith("{#SourceDir}"):
            continue  # the PyInstaller output, built before ISCC runs
        if ref.startswith("compiler:"):
            # Only Default.isl ships with every Inno Setup; translations vary by version.
            assert ref == "compiler:Default.isl", f"{ref}: ship it under installer/ instead"
            continue
        path = ISS.parent.joinpath(*PureWindowsPath(ref).parts)
        if not path.is_file():
            missing.append(ref)
    assert missing == []


def test_the_chinese_translation_keeps_its_credits_and_names_its_language():
    raw = (ROOT / "installer" / "Languages" / "ChineseSimplified.isl").read_bytes()
    # Inno Setup 6.4 reads a .isl as UTF-8 only after a byte-order mark (else as ANSI).
    assert raw.startswith(b"\xef\xbb\xbf")
    text = raw.decode("utf-8-sig")
    assert text.startswith("; *** Inno Setup version ")
    assert "Maintained by" in text
    assert "LanguageName=简体中文" in text and "LanguageID=$0804" in text
    readme = (ROOT / "installer" / "README.md").read_text(encoding="utf-8")
    assert "Languages/ChineseSimplified.isl" in readme and "Inno Setup license" in readme


def test_cuda_installer_slices_fit_a_release_asset():
    lines = _iss_lines()
    start = lines.index('#if Flavour == "cuda"')
    block = lines[start : lines.index("#endif", start)]
    settings = dict(
        line.split("=", 1) for line in block if "=" in line and not line.startswith("#")
    )
    assert settings["DiskSpanning"] == "yes"
    # "max" means unlimited since Inno Setup 6.5: the size must be a number.
    assert settings["DiskSliceSize"].isdigit()
    assert 262_144 <= int(settings["DiskSliceSize"]) < RELEASE_ASSET_LIMIT


def test_signing_is_prepared_but_optional():
    text = ISS.read_text(encoding="utf-8")
    assert re.search(
        r"#ifdef SignTool\s+SignTool=\{#SignTool\}\s+SignedUninstaller=yes\s+#endif", text
    )


def test_both_executables_run_in_utf8_mode():
    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    constants = {
        node.targets[0].id: node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    exes = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "EXE"
    ]
    assert len(exes) == 2
    for exe in exes:
        options = exe.args[2]  # EXE(pyz, scripts, options, ...): PyInstaller's run-time options
        if isinstance(options, ast.Name):
            options = constants[options.id]
        # The bootloader knows "X utf8[=1]"; "X utf8_mode=1" would be ignored.
        assert ("X utf8", None, "OPTION") in ast.literal_eval(options)


def test_workflow_uploads_every_slice_and_checks_installer_exit_codes():
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "dist/installer/*.exe" in text and "dist/installer/*.bin" in text
    assert "compression-level: 0" in text
    assert (
        text.count("-Wait -PassThru") == 2
        and "$install.ExitCode" in text
        and "$uninstall.ExitCode" in text
    )
    assert "Inno Setup 6\\ISCC.exe" not in text
    uses = re.findall(r"uses:\s*(\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses)


# --- issue 37: what the Wine rehearsal found ---------------------------------------------------

INNO_SETUP = "6.4.1"  # the compiler the workflow and installer/wine-rehearsal.sh use


def _encoded(version: str) -> int:
    major, minor, patch = (int(p) for p in version.split("."))
    return major << 24 | minor << 16 | patch << 8


def test_the_installer_refuses_windows_before_10():
    settings = dict(line.split("=", 1) for line in _iss_lines() if re.fullmatch(r"\w+=.*", line))
    assert settings["MinVersion"] == "10.0"  # Python 3.11 needs 8.1, Qt 6 needs 10
    assert settings["ArchitecturesAllowed"] == "x64compatible"


def test_the_script_is_pinned_to_the_inno_setup_of_its_chinese_messages():
    guard = re.search(
        r"#if Ver < EncodeVer\((\d+), (\d+), (\d+)\) \|\| Ver >= EncodeVer\((\d+), (\d+), (\d+)\)\s+"
        r"#error [^\n]+\s+#endif",
        ISS.read_text(encoding="utf-8"),
    )
    assert guard, "ChatTTSStudio.iss has no Inno Setup version guard"
    low, high = (
        int(guard[1]) << 24 | int(guard[2]) << 16 | int(guard[3]) << 8,
        int(guard[4]) << 24 | int(guard[5]) << 16 | int(guard[6]) << 8,
    )
    assert low <= _encoded(INNO_SETUP) < high
    isl = (ROOT / "installer" / "Languages" / "ChineseSimplified.isl").read_text(
        encoding="utf-8-sig"
    )
    made_for = re.match(r"; \*\*\* Inno Setup version (\d+)\.(\d+)\.(\d+)\+", isl)
    assert made_for and low <= _encoded(".".join(made_for.groups())) < high
    # Everything that compiles the script uses that version.
    assert f"npm pack innosetup@{INNO_SETUP}" in WORKFLOW.read_text(encoding="utf-8")
    assert "choco install innosetup" not in WORKFLOW.read_text(encoding="utf-8")
    rehearsal = (ROOT / "installer" / "wine-rehearsal.sh").read_text(encoding="utf-8")
    assert f'INNO_SETUP="innosetup@{INNO_SETUP}"' in rehearsal


def test_the_icon_holds_every_size_windows_shows():
    data = (ROOT / "resources" / "icons" / "app.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", data)
    assert (reserved, kind) == (0, 1)  # an icon, not a cursor
    sizes = set()
    for i in range(count):
        width, height = struct.unpack_from("<BB", data, 6 + 16 * i)
        sizes.add((width or 256, height or 256))  # 0 means 256
    assert {(n, n) for n in (16, 24, 32, 48, 256)} <= sizes


def test_build_spec_names_no_test_only_dependency():
    """Hidden imports and copied metadata: a test-only package is absent from the build
    environment (`Hidden import 'cn2an' not found`). Leaving one out (excludes) is fine."""
    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    kept = [
        node
        for node in tree.body
        if not (isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "excludes")
    ]
    named = {
        node.value.lower()
        for top in kept
        for node in ast.walk(top)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    assert {"chattts", "num2words", "pybase16384"} <= named
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    runtime = {re.split(r"[<>=!~\[ ;]", r)[0].lower() for r in config["project"]["dependencies"]}
    test_only = {
        re.split(r"[<>=!~\[ ;]", r)[0].lower()
        for r in config["project"]["optional-dependencies"]["test"]
    } - runtime
    assert "cn2an" in test_only
    assert not named & test_only, named & test_only


def test_the_bundle_carries_the_take_checkers_model_files():
    """silero-vad's TorchScript file (found inside its package at run time) and our speaker
    encoder's weights with their licence are named by the spec, as the program finds them."""
    from app.audio.takes import model_files, speaker

    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    collected = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", "") == "collect_data_files"
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == model_files.VAD_MODEL[0]
    ]
    assert len(collected) == 1
    includes = {k.arg: ast.literal_eval(k.value) for k in collected[0].keywords}["includes"]
    assert includes == [model_files.VAD_MODEL[1]]
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    shipped = {speaker.WEIGHTS.name, "LICENSE-resemblyzer"}
    assert shipped <= named
    assert speaker.WEIGHTS.parent == ROOT / "app" / "audio" / "takes"
    assert all((speaker.WEIGHTS.parent / name).is_file() for name in shipped)
