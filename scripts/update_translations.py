"""Update both translation catalogs from the sources, then compile them.

    python scripts/update_translations.py          update every catalog, compile .qm and .mo
    python scripts/update_translations.py --check  change nothing; exit 1, saying what is wrong

The window (app/ui) translates with Qt: resources/translations/chattts_studio_<lang>.ts, read by
pyside6-lupdate and compiled to .qm by pyside6-lrelease. The rest of app/ translates with gettext:
resources/locale/<lang>/LC_MESSAGES/chattts_studio.po, read with Babel as babel.cfg maps the
files, compiled to .mo. The languages are app.resources.TRANSLATED_LANGUAGES; a language without
catalogs gets new ones to translate.

Every source file is read, so a translation is dropped only when no source says its string any
more; the tests read the sources through qt_sources() and gettext_sources() below, so they and
this script always see the same files (tests/test_update_translations.py).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file: app/ is beside this folder
    sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402
from babel.util import pathmatch  # noqa: E402

from app.resources import (  # noqa: E402
    DOMAIN,
    TRANSLATED_LANGUAGES,
    catalog_file,
    resources_dir,
    translation_file,
)

QT_SOURCES = "app/ui"
BABEL_CFG = "babel.cfg"
# gettext's keywords: Babel's own (_, ngettext, ...) and N_, which marks a constant.
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
PO_WIDTH = 76  # pybabel's default, so a catalog edited with pybabel by hand stays the same


# --- Which files are read (the tests import these) -------------------------------------------


def qt_sources(root: Path = ROOT) -> list[Path]:
    """Every Python file of the window, its subfolders (controllers/, narration/) included."""
    return sorted((root / QT_SOURCES).rglob("*.py"))


def _babel_mapping(root: Path):
    with open(root / BABEL_CFG, encoding="utf-8") as fp:
        return parse_mapping_cfg(fp, BABEL_CFG)


def _walk(root: Path):
    """Files below root, relative and in '/' form, skipping folders Babel skips (. and _)."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        for name in sorted(files):
            yield (Path(folder) / name).relative_to(root).as_posix()


def _gettext_methods(root: Path) -> list[tuple[str, str, dict]]:
    """(file, extraction method, options) for each file babel.cfg maps: its first matching
    pattern decides, and [ignore: ...] leaves the file out (as pybabel extract does)."""
    method_map, options_map = _babel_mapping(root)
    found = []
    for relative in _walk(root):
        for pattern, method in method_map:
            if pathmatch(pattern, relative):
                if method != "ignore":
                    found.append((relative, method, options_map.get(pattern, {})))
                break
    return found


def gettext_sources(root: Path = ROOT) -> list[Path]:
    """Every file babel.cfg hands to the gettext extraction (app/ without app/ui)."""
    return [root / relative for relative, _method, _options in _gettext_methods(root)]


# --- Paths of the catalogs -------------------------------------------------------------------


def ts_file(language: str, root: Path = ROOT) -> Path:
    qm = translation_file(language).relative_to(resources_dir())
    return root / "resources" / qm.with_suffix(".ts")


def qm_file(language: str, root: Path = ROOT) -> Path:
    return ts_file(language, root).with_suffix(".qm")


def mo_file(language: str, root: Path = ROOT) -> Path:
    return root / "resources" / catalog_file(language).relative_to(resources_dir())


def po_file(language: str, root: Path = ROOT) -> Path:
    return mo_file(language, root).with_suffix(".po")


# --- Qt: .ts and .qm -------------------------------------------------------------------------


def _qt_tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease of this Python's PySide6, else the first on PATH."""
    here = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if here is None:
        raise SystemExit(f"{name} not found: install PySide6 (pip install -e .[test]).")
    return here


def lupdate(ts: Path, language: str, root: Path = ROOT) -> None:
    """Bring `ts` up to date with the window's sources; strings no source says are dropped."""
    ts.parent.mkdir(parents=True, exist_ok=True)
    sources = [str(p.relative_to(root)) for p in qt_sources(root)]
    subprocess.run(
        [_qt_tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-target-language", language]
        + sources
        + ["-ts", str(ts)],
        cwd=root,
        check=True,
        capture_output=True,
        timeout=300,
    )


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run(
        [_qt_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)],
        check=True,
        capture_output=True,
        timeout=300,
    )


TsMessages = dict[tuple[str, str, str], tuple[str | None, tuple[str, ...]]]


def ts_messages(ts: Path) -> TsMessages:
    """(context, source, comment) -> (translation type, translated texts) of a .ts file."""
    found: TsMessages = {}
    for context in ET.parse(ts).iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            translation = message.find("translation")
            if translation is None:  # no translation element: nothing translated
                found[key] = ("unfinished", ("",))
                continue
            forms = translation.findall("numerusform")
            texts = tuple(f.text or "" for f in forms) if forms else (translation.text or "",)
            found[key] = (translation.get("type"), texts)
    return found


# --- gettext: .po and .mo --------------------------------------------------------------------


def extract_gettext(root: Path = ROOT) -> Catalog:
    """The template: every marked string in gettext_sources(), located by file (no line)."""
    template = Catalog(project="ChatTTS Studio", charset="utf-8", fuzzy=False)
    for relative, method, options in _gettext_methods(root):
        for _line, message, comments, context in extract_from_file(
            method, root / relative, keywords=KEYWORDS, options=options
        ):
            template.add(message, None, [(relative, None)], auto_comments=comments, context=context)
    return template


def _po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, ignore_obsolete=True, sort_output=True, width=PO_WIDTH)
    return out.getvalue()


def _without_dates(text: bytes) -> bytes:
    return b"\n".join(
        line
        for line in text.splitlines()
        if not line.startswith((b'"POT-Creation-Date:', b'"PO-Revision-Date:'))
    )


def updated_po(po: Path, language: str, template: Catalog) -> bytes:
    """The .po's new text: the template's strings, each with its translation kept, and nothing
    that no source says any more. Its dates change only when something else does."""
    if po.is_file():
        with open(po, "rb") as fp:
            catalog = read_po(fp, locale=language, domain=DOMAIN)
        old = po.read_bytes()
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="ChatTTS Studio", fuzzy=False)
        old = b""
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
    new = _po_text(catalog)
    if _without_dates(new) != _without_dates(old):
        catalog.creation_date = template.creation_date
        new = _po_text(catalog)
    return new


def compiled_mo(po: Path, language: str) -> bytes:
    with open(po, "rb") as fp:
        catalog = read_po(fp, locale=language, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def po_messages(po: Path, language: str) -> dict:
    """(msgid, context) -> (fuzzy, translated texts) of a .po file."""
    with open(po, "rb") as fp:
        catalog = read_po(fp, locale=language, domain=DOMAIN)
    return {
        (m.id, m.context): (m.fuzzy, m.string if isinstance(m.string, tuple) else (m.string,))
        for m in catalog
        if m.id
    }


# --- The two modes ---------------------------------------------------------------------------


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def update(root: Path = ROOT, languages=TRANSLATED_LANGUAGES) -> list[str]:
    """Update and compile every catalog under root; returns the files written."""
    written = []
    template = extract_gettext(root)
    for language in languages:
        ts, qm = ts_file(language, root), qm_file(language, root)
        before = ts.read_bytes() if ts.is_file() else None
        lupdate(ts, language, root)
        if ts.read_bytes() != before:
            written.append(ts)
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / qm.name
            lrelease(ts, fresh)
            if _write_if_changed(qm, fresh.read_bytes()):
                written.append(qm)
        po, mo = po_file(language, root), mo_file(language, root)
        if _write_if_changed(po, updated_po(po, language, template)):
            written.append(po)
        if _write_if_changed(mo, compiled_mo(po, language)):
            written.append(mo)
    return [str(p.relative_to(root)) for p in written]


def _shown(text: str) -> str:
    return repr(text if len(text) <= 70 else text[:67] + "...")


def _qt_problems(language: str, root: Path) -> list[str]:
    ts, qm = ts_file(language, root), qm_file(language, root)
    name = ts.relative_to(root).as_posix()
    if not ts.is_file():
        return [f"{name} does not exist: run scripts/update_translations.py to create it."]
    problems = []
    committed = ts_messages(ts)
    with tempfile.TemporaryDirectory() as tmp:
        fresh_ts = Path(tmp) / ts.name
        shutil.copyfile(ts, fresh_ts)
        lupdate(fresh_ts, language, root)
        fresh = ts_messages(fresh_ts)
        fresh_qm = Path(tmp) / qm.name
        lrelease(ts, fresh_qm)
        qm_current = qm.is_file() and qm.read_bytes() == fresh_qm.read_bytes()
    for context, source, _comment in sorted(fresh.keys() - committed.keys()):
        problems.append(f"{name} lacks {_shown(source)} (context {context}), said in app/ui.")
    for context, source, _comment in sorted(committed.keys() - fresh.keys()):
        problems.append(f"{name} keeps {_shown(source)} (context {context}), which no source says.")
    for (context, source, _comment), (kind, texts) in sorted(committed.items()):
        if kind in ("unfinished", "obsolete", "vanished") or not all(texts):
            problems.append(f"{name} has no translation of {_shown(source)} (context {context}).")
    if not qm_current:
        problems.append(f"{qm.relative_to(root).as_posix()} is not compiled from {name}.")
    return problems


def _gettext_problems(language: str, template: Catalog, root: Path) -> list[str]:
    po, mo = po_file(language, root), mo_file(language, root)
    name = po.relative_to(root).as_posix()
    if not po.is_file():
        return [f"{name} does not exist: run scripts/update_translations.py to create it."]
    problems = []
    committed = po_messages(po, language)
    fresh = {(m.id, m.context) for m in template if m.id}
    for msgid, _context in sorted(fresh - committed.keys(), key=str):
        problems.append(f"{name} lacks {_shown(str(msgid))}, said in app/.")
    for msgid, _context in sorted(committed.keys() - fresh, key=str):
        problems.append(f"{name} keeps {_shown(str(msgid))}, which no source says.")
    for (msgid, _context), (fuzzy, texts) in sorted(committed.items(), key=str):
        if fuzzy or not all(texts):
            problems.append(f"{name} has no finished translation of {_shown(str(msgid))}.")
    if not (mo.is_file() and mo.read_bytes() == compiled_mo(po, language)):
        problems.append(f"{mo.relative_to(root).as_posix()} is not compiled from {name}.")
    return problems


def check(root: Path = ROOT, languages=TRANSLATED_LANGUAGES) -> list[str]:
    """What is out of date or untranslated, one sentence each; [] when all is well."""
    template = extract_gettext(root)
    problems = []
    for language in languages:
        problems += _qt_problems(language, root) + _gettext_problems(language, template, root)
    return problems


def main(argv: list[str] | None = None, root: Path = ROOT) -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/update_translations.py",
        description="Update the Qt (.ts) and gettext (.po) catalogs from the sources and "
        "compile them (.qm, .mo).",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 if a catalog is out of date or a string lacks a translation",
    )
    args = parser.parse_args(argv)
    if args.check:
        problems = check(root)
        for problem in problems:
            print(problem)
        if problems:
            print("Run scripts/update_translations.py, then translate what it marks unfinished.")
            return 1
        print(f"Every catalog is current and complete ({', '.join(TRANSLATED_LANGUAGES)}).")
        return 0
    written = update(root)
    for path in written:
        print(f"updated {path}")
    problems = check(root)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
