"""UI language: English (the source strings) or Simplified Chinese via a Qt .qm file."""

from __future__ import annotations

import logging

from PySide6.QtCore import QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from app.resources import translation_file

log = logging.getLogger("chattts_studio.i18n")

_installed: QTranslator | None = None


def resolve_language(setting: str) -> str:
    """'system' follows the OS locale: Chinese locales get zh_CN, everything else English."""
    if setting in ("en", "zh_CN"):
        return setting
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def apply_language(setting: str) -> str:
    """Install the translator for `setting`; widgets retranslate on the LanguageChange event."""
    global _installed
    app = QApplication.instance()
    language = resolve_language(setting)
    if _installed is not None:
        app.removeTranslator(_installed)
        _installed = None
    if language != "en":
        translator = QTranslator(app)
        path = translation_file(language)
        if translator.load(str(path)):
            app.installTranslator(translator)
            _installed = translator
        else:
            log.warning("translation %s not found; staying in English", path)
            language = "en"
    return language
