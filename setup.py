"""Package discovery (pyproject.toml holds everything else): every package under app/, and
resources/ installed as `chattts_studio_resources` with each of its data folders as a namespace
package (setuptools warns about a data folder that is not a package). Discovery lives here
because pyproject's `packages.find` cannot install a folder under another name; no package is
listed by hand (tests/test_packaging.py)."""

from setuptools import find_namespace_packages, find_packages, setup

RESOURCES = "chattts_studio_resources"

setup(
    packages=find_packages(include=["app", "app.*"])
    + [RESOURCES]
    + [f"{RESOURCES}.{name}" for name in find_namespace_packages("resources")]
)
