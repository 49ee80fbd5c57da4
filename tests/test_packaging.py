"""The wheel must carry every package and the resources the program loads at run time."""

import ast
import json
import pkgutil
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
import tomllib

import app

ROOT = Path(__file__).resolve().parents[1]


def _discovered_packages(monkeypatch) -> set[str]:
    """What setup.py's discovery hands to setuptools, from the checkout."""
    import runpy

    import setuptools

    captured = {}
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: captured.update(kwargs))
    monkeypatch.chdir(ROOT)
    runpy.run_path(str(ROOT / "setup.py"))
    return set(captured["packages"])


def test_every_package_is_discovered_none_listed_by_hand(monkeypatch):
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "packages" not in config["tool"]["setuptools"]
    assert config["tool"]["setuptools"]["package-dir"] == {"chattts_studio_resources": "resources"}
    discovered = _discovered_packages(monkeypatch)
    found = {"app"} | {m.name for m in pkgutil.walk_packages(app.__path__, "app.") if m.ispkg}
    assert found <= discovered, found - discovered
    # resources/ and its data folders (setuptools warns about a data folder that is no package).
    assert {
        "chattts_studio_resources",
        "chattts_studio_resources.icons",
        "chattts_studio_resources.translations",
        "chattts_studio_resources.locale.zh_CN.LC_MESSAGES",
    } <= discovered
    assert not {
        p for p in discovered if p.split(".")[0] in ("tests", "bench", "installer", "resources")
    }


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_program_ships_no_test_helper():
    """What only tests use lives in tests/ (build.spec leaves it out of the bundle): the
    program must never import it, nor the test tools."""
    for path in (ROOT / "app").rglob("*.py"):
        top = {name.split(".")[0] for name in _imported_modules(path)}
        assert not top & {"tests", "pytest", "hypothesis"}, path
    assert not (ROOT / "app" / "testing").exists()
    assert (ROOT / "tests" / "support" / "fake_hub.py").is_file()


def test_console_and_gui_entry_points():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["scripts"]["chattts-studio"] == "app.__main__:main"
    assert config["project"]["gui-scripts"]["chattts-studio-gui"] == "app.__main__:gui_main"


def test_every_ui_language_has_a_translation_in_the_loaded_resources():
    from app.resources import TRANSLATED_LANGUAGES, loaded_resources
    from app.ui.settings import LANGUAGES

    assert set(LANGUAGES) - {"system", "en"} == set(TRANSLATED_LANGUAGES)
    assert all(p.is_file() for p in loaded_resources())  # in the checkout


# Run in the fresh environment: the program's own lookup (app/resources.py) of every file it
# loads, from the installed copy.
PROBE = """
import json, app, app.resources as r
print(json.dumps({"app": app.__file__, "dir": str(r.resources_dir()),
                  "loaded": [str(p) for p in r.loaded_resources()],
                  "missing": [str(p) for p in r.loaded_resources() if not p.is_file()]}))
"""


@pytest.mark.slow
def test_the_built_wheel_installs_with_every_module_and_resource_the_program_loads(tmp_path):
    src = tmp_path / "src"  # build from a copy: nothing is written into the checkout
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "screenshots")
    shutil.copytree(ROOT / "app", src / "app", ignore=skip)
    shutil.copytree(ROOT / "resources", src / "resources", ignore=skip)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        pip
        + [
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(tmp_path / "dist"),
            str(src),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    wheel = next((tmp_path / "dist").glob("chattts_studio-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "app").rglob("*.py")}
    assert sources <= names, sorted(sources - names)

    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=False)  # no site-packages: only what the wheel brings
    python = fresh / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    subprocess.run(
        pip + ["--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    probe = subprocess.run(
        [str(python), "-I", "-c", PROBE], capture_output=True, text=True, cwd=tmp_path
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert Path(found["app"]).is_relative_to(fresh) and Path(found["dir"]).is_relative_to(fresh)
    assert found["missing"] == []
    assert {Path(p).suffix for p in found["loaded"]} >= {".qm", ".mo", ".png"}
