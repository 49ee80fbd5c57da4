"""The gettext catalog of the Qt-free code (app/i18n.py): complete, current, compiled, and used.

scripts/update_translations.py maintains it; these tests run its extraction.
"""

import gettext
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n, resources
from scripts import update_translations

ROOT = Path(__file__).parents[1]
PO = resources.locale_dir() / "zh_CN" / "LC_MESSAGES" / f"{resources.DOMAIN}.po"


def catalog():
    with open(PO, "rb") as fp:
        return read_po(fp)


def messages(cat):
    return [m for m in cat if m.id]


def placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_every_message_has_a_chinese_translation_and_none_is_fuzzy():
    cat = catalog()
    found = messages(cat)
    assert len(found) > 150
    untranslated = [
        m.id for m in found if not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    fuzzy = [m.id for m in found if m.fuzzy]
    assert untranslated == [] and fuzzy == [] and not cat.fuzzy
    assert cat.locale_identifier.startswith("zh")


def test_every_translation_has_the_same_named_placeholders():
    """A translation that renames or drops a {name} would raise KeyError (or lose a value) at
    .format() time in front of the user."""
    wrong = []
    for m in messages(catalog()):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(placeholders(i) for i in ids))
        wrong += [(m.id, s) for s in strings if placeholders(s) != wanted]
    assert wrong == []


def test_every_marked_string_in_the_sources_is_in_the_catalog_and_none_is_stale():
    """The extraction of scripts/update_translations.py finds exactly the committed msgids."""
    fresh = {m.id for m in update_translations.extract_gettext() if m.id}
    committed = {m.id for m in messages(catalog())}
    assert len(fresh) > 150
    assert fresh - committed == set(), (
        "run scripts/update_translations.py, translate the new strings"
    )
    assert committed - fresh == set(), "strings no longer in the sources: the script drops them"


def test_the_script_reads_the_files_pybabel_reads(tmp_path):
    """Its discovery is babel.cfg's: pybabel's own walk of the tree finds the same strings."""
    pot = tmp_path / "fresh.pot"
    pybabel = Path(sys.executable).parent / "pybabel"
    subprocess.run(
        [str(pybabel), "extract", "-F", "babel.cfg", "-k", "N_", "-o", str(pot), "."],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    with open(pot, "rb") as fp:
        walked = {(m.id, tuple(sorted({f for f, _ in m.locations}))) for m in read_po(fp) if m.id}
    ours = {
        (m.id, tuple(sorted({f for f, _ in m.locations})))
        for m in update_translations.extract_gettext()
        if m.id
    }
    assert walked == ours


def test_the_committed_mo_is_compiled_from_the_committed_po():
    """The .mo the program reads says exactly what the .po says (pybabel compile after each edit)."""
    with open(resources.catalog_file("zh_CN"), "rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    cat = catalog()
    for m in messages(cat):
        if isinstance(m.id, tuple):
            for n, form in ((1, 0), (2, 0), (5, 0)):
                assert compiled.ngettext(*m.id, n) == m.string[form]
        else:
            assert compiled.gettext(m.id) == m.string, m.id
    # Nothing in the .mo that the .po lacks (the metadata entry aside).
    po_ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in messages(cat)}
    mo_ids = {k[0] if isinstance(k, tuple) else k for k in compiled._catalog if k}
    assert mo_ids == po_ids


def test_set_language_switches_every_thread_and_falls_back_to_english(tmp_path, monkeypatch):
    assert i18n.set_language("zh_CN") == "zh_CN" and i18n.current_language() == "zh_CN"
    assert i18n._("No NVIDIA GPU found.") == "未找到 NVIDIA GPU。"
    assert (
        i18n.ngettext(
            "{count} output device; default: {device}.",
            "{count} output devices; default: {device}.",
            2,
        )
        == "{count} 个输出设备；默认：{device}。"
    )
    assert i18n.set_language("en") == "en"
    assert i18n._("No NVIDIA GPU found.") == "No NVIDIA GPU found."
    # A missing or damaged catalog leaves the program in English rather than stopping it.
    damaged = tmp_path / "zh_CN" / "LC_MESSAGES" / f"{resources.DOMAIN}.mo"
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"\xde\x12\x04\x95" + b"\x00" * 5)
    monkeypatch.setattr(resources, "locale_dir", lambda: tmp_path)
    assert i18n.set_language("zh_CN") == "en"
    assert i18n._("No NVIDIA GPU found.") == "No NVIDIA GPU found."
    monkeypatch.setattr(resources, "locale_dir", lambda: tmp_path / "absent")
    assert i18n.set_language("zh_CN") == "en"


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),  # no German catalog: English
        ({"LANG": "zh_TW.UTF-8"}, "zh_CN"),  # the nearest catalog
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh_CN"),  # LC_MESSAGES over LANG
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),  # LC_ALL over both
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "zh_CN:en"}, "zh_CN"),  # GNU priority list
        ({"LANG": "C", "LANGUAGE": "zh_CN"}, "en"),  # ignored in the C locale, as gettext does
    ],
)
def test_the_system_language_follows_the_posix_variables(environ, expected, monkeypatch):
    monkeypatch.setattr(i18n.locale, "getlocale", lambda category=None: (None, None))
    assert i18n.system_language(environ, platform="linux") == expected


def test_on_windows_the_display_language_decides(monkeypatch):
    monkeypatch.setattr(i18n, "_windows_ui_language", lambda: "zh_CN")
    assert i18n.system_language({}, platform="win32") == "zh_CN"
    monkeypatch.setattr(i18n, "_windows_ui_language", lambda: "en_US")
    assert i18n.system_language({}, platform="win32") == "en"
    # A variable set by the user (e.g. in Git Bash) still wins.
    assert i18n.system_language({"LANG": "zh_CN.UTF-8"}, platform="win32") == "zh_CN"


def test_the_runtime_needs_only_the_stdlib_gettext():
    """Babel is for the maintainers: app/ never imports it."""
    uses = [
        p
        for p in (ROOT / "app").rglob("*.py")
        if re.search(r"^\s*(from|import) babel", p.read_text(), re.M)
    ]
    assert uses == []
