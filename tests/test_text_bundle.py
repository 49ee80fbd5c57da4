"""The Windows bundle carries what text normalization and sentence boundaries load at run
time (issue 38): wetext's compiled FSTs, the data of the packages it imports, sentencex."""

import ast
from pathlib import Path

from PyInstaller.utils.hooks import collect_data_files

ROOT = Path(__file__).resolve().parents[1]


def _spec_block() -> ast.For:
    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    loops = [node for node in ast.walk(tree) if isinstance(node, ast.For)
             and isinstance(node.iter, ast.Tuple) and "wetext" in ast.literal_eval(node.iter)]
    assert len(loops) == 1
    return loops[0]


def test_the_bundle_collects_every_fst_wetext_loads():
    import wetext

    packages = ast.literal_eval(_spec_block().iter)
    bundled = {Path(dest, Path(src).name).as_posix() for package in packages
               for src, dest in collect_data_files(package)}
    fst_folder = Path(wetext.__file__).parent / "fsts"
    needed = {("wetext" / f.relative_to(fst_folder.parent)).as_posix() for f in fst_folder.rglob("*.fst")}
    assert needed and needed <= bundled
    assert "contractions/data/contractions_dict.json" in bundled


def test_the_lazily_imported_text_modules_are_named_for_the_bundle():
    tree = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    named = {elt.value for node in ast.walk(tree) if isinstance(node, ast.AugAssign)
             and getattr(node.target, "id", None) == "hiddenimports"
             for elt in node.value.elts if isinstance(elt, ast.Constant)}
    assert {"wetext", "kaldifst", "sentencex"} <= named
