"""Locating the `resources/` folder in a source checkout, an installed wheel or a frozen build,
and the files in it the program loads (i18n.py reads the gettext catalogs found here)."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    candidates = []
    if frozen:
        candidates.append(Path(frozen) / "resources")
    candidates.append(Path(__file__).resolve().parent.parent / "resources")
    try:
        import importlib.resources

        candidates.append(Path(str(importlib.resources.files("chattts_studio_resources"))))
    except (ImportError, TypeError):
        pass
    for path in candidates:
        if (path / "translations").is_dir():
            return path
    return candidates[0]


# The one list of the interface's languages, each named in its own language: English (the
# source strings) first, then each one with catalogs in resources/ (Qt .ts/.qm for the window,
# gettext .po/.mo for the rest) kept by scripts/update_translations.py. The menus, --lang, the
# system language's match and the packaging read it (tests/test_languages.py).
LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文"}
SOURCE_LANGUAGE = "en"
TRANSLATED_LANGUAGES = tuple(lang for lang in LANGUAGE_NAMES if lang != SOURCE_LANGUAGE)


# The gettext domain: resources/locale/<lang>/LC_MESSAGES/<DOMAIN>.mo (and its .po).
DOMAIN = "chattts_studio"


def locale_dir() -> Path:
    return resources_dir() / "locale"


def catalog_file(language: str) -> Path:
    """The compiled gettext catalog for `language` (English has none: it is the source)."""
    return locale_dir() / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def translation_file(language: str) -> Path:
    return resources_dir() / "translations" / f"chattts_studio_{language}.qm"


def app_icon() -> Path:
    return resources_dir() / "icons" / "app.png"


def loaded_resources() -> list[Path]:
    """Every file the program loads from resources/ at run time: the wheel and the frozen
    bundle must carry each (tests/test_packaging.py installs a built wheel and checks)."""
    return (
        [translation_file(lang) for lang in TRANSLATED_LANGUAGES]
        + [catalog_file(lang) for lang in TRANSLATED_LANGUAGES]
        + [app_icon()]
    )
