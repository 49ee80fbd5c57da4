"""Releases: a version tag publishes both installers with their checksums, and the README says
where they are, what each is for and how big (issue 13)."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = yaml.safe_load(
    (ROOT / ".github" / "workflows" / "windows.yml").read_text(encoding="utf-8")
)


def test_a_version_tag_publishes_every_installer_file_with_checksums():
    release = WORKFLOW["jobs"]["release"]
    triggers = WORKFLOW[True] if True in WORKFLOW else WORKFLOW["on"]  # YAML 1.1 reads `on` as True
    assert triggers["push"]["tags"] == ["v*"]
    assert release["if"] == "startsWith(github.ref, 'refs/tags/v')" and release["needs"] == "build"
    assert WORKFLOW["permissions"] == {"contents": "read"}  # write only where it publishes
    assert release["permissions"] == {"contents": "write"}
    download, publish = release["steps"]
    assert download["with"]["pattern"] == "ChatTTSStudio-*"  # both flavours' artifacts
    script = publish["run"]
    assert "sha256sum" in script and "SHA256SUMS.txt" in script
    assert re.search(
        r"gh release create .*\*\.exe \*\.bin SHA256SUMS\.txt", script.replace("\\\n", " ")
    )
    assert "${{" not in script  # values come in through env
    for flavour in ("-cpu-setup.exe", "-cuda-setup.exe"):
        assert flavour in script  # the notes say what each is for


def test_the_build_uploads_what_the_release_publishes():
    upload = next(
        s for s in WORKFLOW["jobs"]["build"]["steps"] if s.get("name") == "Upload the installer"
    )
    assert upload["with"]["name"] == "ChatTTSStudio-${{ matrix.flavour }}"
    assert set(upload["with"]["path"].split()) == {"dist/installer/*.exe", "dist/installer/*.bin"}


def test_readme_says_where_the_installers_are_what_each_is_for_and_their_size():
    head = "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:30])
    assert "/releases/latest" in head
    assert "cpu-setup.exe" in head and "cuda-setup.exe" in head
    assert re.search(r"about \d[\d.,]* ?(MB|GB)", head)
