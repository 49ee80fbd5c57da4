"""scripts/update_translations.py reads every source file, so an update keeps every translation
a source still asks for (README's old lupdate command skipped app/ui/narration/ and dropped its
strings), and --check names what is missing or stale."""

import shutil
from pathlib import Path

import pytest

from scripts import update_translations as ut

ROOT = Path(__file__).resolve().parents[1]
NEW_WINDOW_STRING = "A sentence only this test says in the window"
NEW_PLAIN_STRING = "A sentence only this test says on the command line"


def test_the_window_sources_include_every_subfolder():
    found = set(ut.qt_sources())
    narration = set((ROOT / "app" / "ui" / "narration").glob("*.py"))
    assert narration and narration <= found
    assert set((ROOT / "app" / "ui" / "controllers").glob("*.py")) <= found
    assert found == set((ROOT / "app" / "ui").rglob("*.py"))
    # The narration window's strings are in the catalog under their own contexts.
    contexts = {context for context, _source, _comment in ut.ts_messages(ut.ts_file("zh_CN"))}
    assert {"SentenceStatus", "NarrationWindow"} <= contexts


def test_the_gettext_sources_are_app_without_the_window():
    found = {p.relative_to(ROOT).as_posix() for p in ut.gettext_sources()}
    assert "app/narration/render.py" in found and "app/cli/parser.py" in found
    assert not any(name.startswith("app/ui/") for name in found)
    assert all(name.startswith("app/") and name.endswith(".py") for name in found)


@pytest.fixture
def copy(tmp_path):
    """What the script reads and writes, copied: the sources, babel.cfg and the catalogs."""
    shutil.copytree(ROOT / "app", tmp_path / "app", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "babel.cfg", tmp_path)
    for folder in ("translations", "locale"):
        shutil.copytree(ROOT / "resources" / folder, tmp_path / "resources" / folder)
    return tmp_path


def catalogs(root, language="zh_CN"):
    return (
        ut.ts_messages(ut.ts_file(language, root)),
        ut.po_messages(ut.po_file(language, root), language),
    )


def test_an_update_of_the_current_tree_keeps_every_message_and_translation(copy):
    before = catalogs(ROOT)
    assert len(before[0]) > 300 and len(before[1]) > 500
    ut.update(copy)
    assert catalogs(copy) == before
    assert ut.check(copy) == []
    assert ut.update(copy) == []  # a second run changes nothing


def test_check_names_a_new_string_and_update_adds_it_untranslated(copy, capsys):
    status = copy / "app" / "ui" / "narration" / "status.py"
    status.write_text(
        status.read_text(encoding="utf-8")
        + f'\nEXTRA = QT_TRANSLATE_NOOP("SentenceStatus", "{NEW_WINDOW_STRING}")\n',
        encoding="utf-8",
    )
    render = copy / "app" / "narration" / "render.py"
    render.write_text(
        render.read_text(encoding="utf-8") + f'\nEXTRA = _("{NEW_PLAIN_STRING}")\n',
        encoding="utf-8",
    )
    before = catalogs(ROOT)
    assert ut.main(["--check"], root=copy) == 1
    said = capsys.readouterr().out
    assert NEW_WINDOW_STRING in said and NEW_PLAIN_STRING in said and "lacks" in said
    assert catalogs(copy) == before  # --check changed nothing

    assert ut.main([], root=copy) == 1  # updated, but two strings wait for a translation
    qt, plain = catalogs(copy)
    assert qt[("SentenceStatus", NEW_WINDOW_STRING, "")][0] == "unfinished"
    assert plain[(NEW_PLAIN_STRING, None)] == (False, ("",))
    assert {k: v for k, v in qt.items() if k[1] != NEW_WINDOW_STRING} == before[0]
    assert {k: v for k, v in plain.items() if k[0] != NEW_PLAIN_STRING} == before[1]
    problems = ut.check(copy)
    assert len(problems) == 2 and all("no" in p and "translation" in p for p in problems)

    # The strings leave the sources: the next update drops them and nothing else.
    status.write_text((ROOT / "app/ui/narration/status.py").read_text("utf-8"), "utf-8")
    render.write_text((ROOT / "app/narration/render.py").read_text("utf-8"), "utf-8")
    ut.update(copy)
    assert catalogs(copy) == before and ut.check(copy) == []


def test_a_new_language_gets_catalogs_to_translate(copy):
    ut.update(copy, languages=("fr",))
    qt, plain = catalogs(copy, "fr")
    assert qt.keys() == catalogs(ROOT)[0].keys()
    assert {kind for kind, _texts in qt.values()} == {"unfinished"}
    assert plain.keys() == catalogs(ROOT)[1].keys()
    problems = ut.check(copy, languages=("fr",))
    assert len(problems) == len(qt) + len(plain)
    assert all(p.endswith(".") for p in problems)
