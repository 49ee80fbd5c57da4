"""Each domain package has one public face, its `__init__`, and clients import only that.

A client is any module of `app` outside the package (tests and benchmarks may reach inside).
The face lists its names twice: under TYPE_CHECKING for the type checker and the import graph
(grimp and import-linter read those imports), and in `lazy_face`'s table for the program. The
two must agree, no name may shadow one of the package's modules, and importing a face must load
none of the package's modules (a start imports faces before torch; app/lazy_face.py).
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

from tests.support.child_json import run_child

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = (
    "app.core",
    "app.model",
    "app.decode",
    "app.synthesis",
    "app.audio",
    "app.library",
    "app.text",
    "app.voices",
)


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def reaches_inside(graph: grimp.ImportGraph) -> list[str]:
    """Each import from outside a domain package to one of its modules (not its face)."""
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            for package in DOMAINS:
                if (
                    inside(imported, package)
                    and imported != package
                    and not inside(importer, package)
                ):
                    found.append(f"{importer} imports {imported}")
    return found


def test_clients_import_a_domain_package_only_through_its_face():
    graph = grimp.build_graph("app", cache_dir=None)
    assert reaches_inside(graph) == []


def test_the_check_finds_an_import_that_reaches_inside():
    graph = grimp.ImportGraph()
    for module in ("app.ui.window", "app.model", "app.model.store", "app.model.dims"):
        graph.add_module(module)
    graph.add_import(importer="app.ui.window", imported="app.model.store")
    graph.add_import(importer="app.ui.window", imported="app.model")
    graph.add_import(importer="app.model.store", imported="app.model.dims")
    assert reaches_inside(graph) == ["app.ui.window imports app.model.store"]


def face_tables(package: str) -> tuple[dict[str, str], dict[str, str], list[str]]:
    """(TYPE_CHECKING imports, lazy_face's table, __all__), each as name -> "module:attribute"."""
    init = ROOT.joinpath(*package.split("."), "__init__.py")
    tree = ast.parse(init.read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    table: dict[str, str] = {}
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module
                for alias in imp.names:
                    typed[alias.asname or alias.name] = f"{imp.module}:{alias.name}"
        elif isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
            names = ast.literal_eval(node.value)
        elif isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__getattr__":
            assert isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == "lazy_face"
            for name, where in ast.literal_eval(node.value.args[1]).items():
                table[name] = where if ":" in where else f"{where}:{name}"
    return typed, table, names


@pytest.mark.parametrize("package", DOMAINS)
def test_a_face_lists_the_same_names_for_the_type_checker_and_the_program(package):
    typed, table, names = face_tables(package)
    assert table, f"{package} has no lazy_face table"
    assert typed == table
    assert sorted(names) == sorted(table)
    folder = ROOT.joinpath(*package.split("."))
    shadowed = [n for n in table if (folder / f"{n}.py").exists() or (folder / n).is_dir()]
    assert shadowed == []


def test_importing_the_faces_loads_none_of_their_modules_and_every_name_resolves():
    script = f"""
import importlib, json, sys
domains = {list(DOMAINS)!r}
for package in domains:
    importlib.import_module(package)
loaded = sorted(m for m in sys.modules if any(m.startswith(p + ".") for p in domains))
missing = []
for package in domains:
    face = sys.modules[package]
    for name in face.__all__:
        try:
            getattr(face, name)
        except Exception as error:
            missing.append(f"{{package}}.{{name}}: {{error!r}}")
print(json.dumps({{"loaded": loaded, "missing": missing}}))
"""
    seen = run_child(script)
    assert seen["loaded"] == []
    assert seen["missing"] == []


def test_a_name_outside_the_face_is_an_attribute_error():
    seen = run_child(
        "import json, app.model\n"
        "try:\n    app.model.no_such_name\nexcept AttributeError as e:\n"
        "    print(json.dumps({'error': str(e)}))\n"
    )
    assert seen == {"error": "module 'app.model' has no attribute 'no_such_name'"}


def test_a_face_is_read_from_its_module_at_each_use(monkeypatch):
    import app.core
    import app.core.request as request

    monkeypatch.setattr(request, "DEFAULT_SEED", 7)
    assert app.core.DEFAULT_SEED == 7
