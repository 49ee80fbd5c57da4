"""The wheel must carry every package and the resources the program loads at run time."""

import pkgutil
import tomllib
from pathlib import Path

import app

ROOT = Path(__file__).resolve().parents[1]


def test_every_app_package_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {"app"} | {m.name for m in pkgutil.walk_packages(app.__path__, "app.") if m.ispkg}
    assert found <= listed, found - listed
    assert "chattts_studio_resources" in listed


def test_console_and_gui_entry_points():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["project"]["scripts"]["chattts-studio"] == "app.__main__:main"
    assert config["project"]["gui-scripts"]["chattts-studio-gui"] == "app.__main__:gui_main"
