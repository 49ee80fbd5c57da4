"""No import cycles among app's modules, whatever the import style: grimp reads every import
statement of a module, so an import inside a function (a lazy import) counts as much as one at
the top. A cycle hidden behind a lazy import still makes two modules one unit to change."""

from __future__ import annotations

import textwrap

import grimp
import pytest

# Cycles allowed to remain: none (the check wants exactly this set, so neither a new cycle nor a
# fixed one goes unnoticed).
KNOWN_CYCLES: frozenset[frozenset[str]] = frozenset()


def import_graph(package: str) -> grimp.ImportGraph:
    return grimp.build_graph(package, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> set[frozenset[str]]:
    """Each set of modules that import one another in a circle, directly or through others (the
    graph's strongly connected components of more than one module: Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_app_has_no_import_cycles_but_the_known_ones():
    found = cycles(import_graph("app"))
    new = found - KNOWN_CYCLES
    assert not new, f"import cycles: {[sorted(c) for c in new]}"
    gone = KNOWN_CYCLES - found
    assert not gone, f"no longer cycles, remove them from KNOWN_CYCLES: {[sorted(c) for c in gone]}"


def test_a_new_cycle_fails_the_check():
    graph = import_graph("app")
    # The library's schema importing the history store that is built on it.
    graph.add_import(importer="app.library.schema", imported="app.library.history")
    new = cycles(graph) - KNOWN_CYCLES
    assert len(new) == 1
    assert {"app.library.schema", "app.library.history"} <= next(iter(new))


@pytest.fixture
def lazy_package(tmp_path, monkeypatch):
    """A package whose two modules import each other, one of them inside a function."""
    root = tmp_path / "lazy_cycle_pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "first.py").write_text("from lazy_cycle_pkg import second\n")
    (root / "second.py").write_text(
        textwrap.dedent(
            """\
            def later():
                from lazy_cycle_pkg.first import second

                return second
            """
        )
    )
    (root / "alone.py").write_text("import lazy_cycle_pkg.second\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return root.name


def test_a_cycle_behind_a_lazy_import_is_found(lazy_package):
    assert cycles(import_graph(lazy_package)) == {
        frozenset({f"{lazy_package}.first", f"{lazy_package}.second"})
    }
