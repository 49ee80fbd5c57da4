"""The version lives in app/__init__.py only (docs/releasing.md): the package metadata, the CLI,
the window's About box, the speech server's /health, the Windows build and the installer all
show app.__version__, and no other file spells it out."""

import os
import re
import subprocess
from pathlib import Path

import pytest
import tomllib

import app
from app.cli import main

ROOT = Path(__file__).resolve().parents[1]
# SemVer's MAJOR.MINOR.PATCH, numbers only: PEP 440 and the Windows version resource
# (build.spec) read it the same way (docs/releasing.md).
SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")
# Files that may name the version as text: its home, and the history that names each release.
MAY_NAME_IT = {"app/__init__.py", "CHANGELOG.md"}
# Records of past runs name the version they ran, as records should.
RECORDS = ("bench/results/",)
SKIPPED_FOLDERS = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__"}


def test_the_version_is_semver():
    assert SEMVER.fullmatch(app.__version__), app.__version__


def test_the_package_metadata_reads_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "app.__version__"}


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_command_line_says_it(language, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--lang", language, "--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"ChatTTS Studio {app.__version__}"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_about_box_says_it(language, qapp, monkeypatch):
    from app.ui import main_menu
    from app.ui.i18n import apply_language

    shown = []
    monkeypatch.setattr(
        main_menu.QMessageBox, "about", lambda parent, title, text: shown.append(text)
    )
    try:
        apply_language(language)
        main_menu.show_about(None)
    finally:
        apply_language("en")
    assert f"<b>ChatTTS Studio {app.__version__}</b>" in shown[0]
    assert ("在你自己的电脑上" in shown[0]) == (language == "zh_CN")


def test_the_speech_server_says_it(tmp_path):
    from fastapi.testclient import TestClient

    from app.library.voices import VoiceLibrary
    from app.server.app import ServerState, create_app

    client = TestClient(create_app(ServerState(voices=VoiceLibrary(tmp_path / "library"))))
    health = client.get("/health")
    assert health.status_code == 503  # no model yet: loading, and it says its version already
    assert health.json()["version"] == app.__version__
    assert client.get("/openapi.json").json()["info"]["version"] == app.__version__


def test_the_windows_build_and_the_installer_are_given_it():
    spec = (ROOT / "build.spec").read_text(encoding="utf-8")
    assert "from app import __version__" in spec
    assert "StringStruct('ProductVersion', '{__version__}')" in spec
    iss = (ROOT / "installer" / "ChatTTSStudio.iss").read_text(encoding="utf-8")
    # No default: a build that is not handed the version stops instead of naming a stale one.
    assert re.search(r"#ifndef AppVersion\s+#error ", iss)
    assert "AppVersion={#AppVersion}" in iss
    assert "OutputBaseFilename=ChatTTSStudio-{#AppVersion}-" in iss
    reads_it = 'python -c "import app; print(app.__version__)"'
    workflow = (ROOT / ".github" / "workflows" / "windows.yml").read_text(encoding="utf-8")
    assert f"$version = {reads_it}" in workflow and '"/DAppVersion=$version"' in workflow
    rehearsal = (ROOT / "installer" / "wine-rehearsal.sh").read_text(encoding="utf-8")
    assert "import app; print(app.__version__)" in rehearsal
    assert '"/DAppVersion=$version"' in rehearsal


def _project_files():
    """The checkout's own files: git's list (tracked, and new ones not ignored) where there is
    one, so caches and build outputs (.hypothesis, dist) never count; else a walk."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        yield from (name for name in listed.decode("utf-8").split("\0") if name)
        return
    except (OSError, subprocess.CalledProcessError):
        pass
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_FOLDERS and not d.endswith(".egg-info")]
        for name in files:
            yield (Path(folder) / name).relative_to(ROOT).as_posix()


def named_files():
    for relative in _project_files():
        path = ROOT / relative
        if relative in MAY_NAME_IT or relative.startswith(RECORDS) or not path.is_file():
            continue
        if path.stat().st_size < 5_000_000:
            yield relative, path


def test_no_other_file_spells_the_version_out():
    spelled = re.compile(rf"(?<![\d.]){re.escape(app.__version__)}(?!\d)".encode())
    found = [
        relative
        for relative, path in named_files()
        if b"\0" not in (data := path.read_bytes()) and spelled.search(data)
    ]
    assert found == [], "read app.__version__ instead (docs/releasing.md)"
