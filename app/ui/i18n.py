"""UI language: English (the source strings) or Simplified Chinese via a Qt .qm file."""

from __future__ import annotations

import logging

from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator
from PySide6.QtWidgets import QApplication

from app import i18n as plain_i18n
from app.resources import translation_file

log = logging.getLogger("chattts_studio.i18n")

_installed: list[QTranslator] = []


def resolve_language(setting: str) -> str:
    """'system' follows the OS locale: its language if we have it (any Chinese gets zh_CN),
    else English."""
    if setting in plain_i18n.LANGUAGES:
        return setting
    return plain_i18n.match(QLocale.system().name()) or plain_i18n.SOURCE_LANGUAGE


def qt_translation_dir() -> str:
    """Qt's own catalogs (buttons of QWizard, QFileDialog, QMessageBox) as PySide6 ships them."""
    return QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)


def apply_language(setting: str) -> str:
    """Install the translators for `setting` (ours and Qt's own) and switch the Qt-free code's
    gettext catalog (doctor, engine messages) to the same language; widgets retranslate on the
    LanguageChange event."""
    app = QApplication.instance()
    language = resolve_language(setting)
    while _installed:
        app.removeTranslator(_installed.pop())
    if language != "en":
        translator = QTranslator(app)
        path = translation_file(language)
        if not translator.load(str(path)):
            log.warning("translation %s not found; staying in English", path)
            plain_i18n.set_language("en")
            return "en"
        app.installTranslator(translator)
        _installed.append(translator)
        qt_own = QTranslator(app)
        if qt_own.load(f"qtbase_{language}", qt_translation_dir()):
            app.installTranslator(qt_own)
            _installed.append(qt_own)
        else:
            log.warning(
                "Qt's own %s catalog is not in %s; its standard buttons stay English",
                language,
                qt_translation_dir(),
            )
    plain_i18n.set_language(language)
    return language
