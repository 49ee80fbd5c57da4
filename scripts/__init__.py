"""Maintainers' scripts, run from the repository root (the tests import them as a package)."""
