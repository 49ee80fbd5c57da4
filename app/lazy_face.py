"""A package's public face whose names load on first use.

Clients import a domain package's names from the package itself, never from its modules
(tests/checks/test_package_faces.py). The face lists each name's module and imports it when the
name is first read, so importing a face costs nothing: a start reads `app.model` and `app.core`
without loading torch.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_face(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: `names` maps each public name to "module" (the same
    name there) or "module:attribute"."""

    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = where.partition(":")
        # Read from the module at every use, not kept here: a test that patches the module's
        # function is seen by a client that imports the name inside a function.
        return getattr(importlib.import_module(module), attribute or name)

    return __getattr__
