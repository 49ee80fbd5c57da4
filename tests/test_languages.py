"""One list of languages (app/resources.py LANGUAGE_NAMES): the menus, the settings, --lang, the
system language's match, the catalogs and the installer all follow it."""

import re
from pathlib import Path, PureWindowsPath

from app import i18n, resources
from app.cli import parser as cli_parser
from app.cli import window as cli_window
from app.server.language import client_language
from scripts import update_translations

ROOT = Path(__file__).resolve().parents[1]


def choices_of(parser, option: str) -> tuple:
    return tuple(next(a for a in parser._actions if option in a.option_strings).choices)


def test_every_list_of_languages_is_read_from_the_one():
    from app.ui import main_menu, settings

    names = tuple(resources.LANGUAGE_NAMES)
    assert names[0] == resources.SOURCE_LANGUAGE == i18n.SOURCE_LANGUAGE
    assert names[1:] == resources.TRANSLATED_LANGUAGES
    assert names == i18n.LANGUAGES
    assert ("system", *names) == settings.LANGUAGES
    assert tuple(main_menu.LANGUAGE_LABELS) == ("system", *names)
    assert choices_of(cli_parser.build_parser(), "--lang") == names
    assert choices_of(cli_window.parser(), "--lang") == names
    assert f"--lang {'|'.join(names)}" in cli_window.USAGE


def test_every_translated_language_has_both_catalogs_compiled_and_shipped():
    shipped = set(resources.loaded_resources())
    for language in resources.TRANSLATED_LANGUAGES:
        for path in (
            update_translations.ts_file(language),
            update_translations.qm_file(language),
            update_translations.po_file(language),
            update_translations.mo_file(language),
        ):
            assert path.is_file(), path
        assert resources.translation_file(language) in shipped
        assert resources.catalog_file(language) in shipped


def test_a_locale_or_header_finds_the_language_of_the_list():
    assert i18n.match("zh_CN.UTF-8") == i18n.match("zh-Hant") == "zh_CN"
    assert i18n.match("en_GB") == "en"
    assert i18n.match("de_DE") is None and i18n.normalize("de_DE") == "en"
    assert i18n.match("C") is None and i18n.normalize("POSIX") is None
    assert client_language("de-DE, zh-TW;q=0.5, en;q=0.1") == "zh_CN"
    assert client_language("*, de") == "en"


def test_the_installer_speaks_as_many_languages_as_the_program():
    """Inno Setup names its languages its own way, so the count is what can be compared: a new
    language in LANGUAGE_NAMES needs its installer messages (installer/Languages/*.isl) too."""
    iss = (ROOT / "installer" / "ChatTTSStudio.iss").read_text(encoding="utf-8")
    section = iss.split("[Languages]", 1)[1].split("\n[", 1)[0]
    files = re.findall(r'^Name: "\w+"; MessagesFile: "([^"]+)"', section, re.M)
    assert len(files) == len(resources.LANGUAGE_NAMES)
    for name in files:
        shipped = ROOT.joinpath("installer", *PureWindowsPath(name).parts)
        assert name.startswith("compiler:") or shipped.is_file(), name
