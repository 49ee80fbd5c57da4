"""The Windows bundle carries what text normalization and sentence boundaries load at run
time (issue 38): wetext's compiled FSTs, the data of the packages it imports, sentencex.
(PyInstaller is a build dependency, not a test one: build.spec is read, not run.)"""

import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))


def _text_loop() -> ast.For:
    loops = [
        node
        for node in ast.walk(SPEC)
        if isinstance(node, ast.For)
        and isinstance(node.iter, ast.Tuple)
        and "wetext" in ast.literal_eval(node.iter)
    ]
    assert len(loops) == 1
    return loops[0]


def test_the_bundle_collects_all_data_of_wetext_and_what_it_imports():
    loop = _text_loop()
    assert {"wetext", "contractions", "anyascii", "sentencex"} <= set(ast.literal_eval(loop.iter))
    [statement] = loop.body
    call = statement.value
    # All of each package's data files: no includes/excludes that could leave an FST behind.
    assert isinstance(statement, ast.AugAssign) and statement.target.id == "datas"
    assert call.func.id == "collect_data_files" and [a.id for a in call.args] == [loop.target.id]
    assert call.keywords == []
    # ...and the FSTs wetext loads are data files inside its package, where that collects them.
    package = Path(importlib.util.find_spec("wetext").origin).parent
    assert list((package / "fsts" / "zh" / "tn").glob("*.fst")) and list(
        (package / "fsts" / "en" / "tn").glob("*.fst")
    )


def test_the_lazily_imported_text_modules_are_named_for_the_bundle():
    named = {
        elt.value
        for node in ast.walk(SPEC)
        if isinstance(node, ast.AugAssign) and getattr(node.target, "id", None) == "hiddenimports"
        for elt in node.value.elts
        if isinstance(elt, ast.Constant)
    }
    assert {"wetext", "kaldifst", "sentencex"} <= named
