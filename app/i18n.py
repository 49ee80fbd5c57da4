"""Translations of the Qt-free code (doctor, CLI; later the engine) with the stdlib `gettext`.

English is the source language. The catalog is resources/locale/<lang>/LC_MESSAGES/chattts_studio.po,
kept by scripts/update_translations.py (Babel, babel.cfg); the compiled .mo next to it is
committed, so the program needs nothing but `gettext` at run time. The window keeps its own Qt
catalog and calls set_language() when its language changes, so both follow one choice.

Strings are marked `_("... {name} ...").format(name=...)`: named placeholders let a translation
reorder them. A module-level constant is marked `N_("...")` and translated where it is used.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import locale
import numbers
import os
import struct
import sys

from app.resources import LANGUAGE_NAMES, SOURCE_LANGUAGE, catalog_file

LANGUAGES = tuple(LANGUAGE_NAMES)  # SOURCE_LANGUAGE first

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE
# A language for one context (a speech server request) over the process's: (language, catalog).
_in_context: contextvars.ContextVar[tuple[str, gettext.NullTranslations] | None] = (
    contextvars.ContextVar("chattts_studio_language", default=None)
)
_catalogs: dict[str, tuple[str, gettext.NullTranslations]] = {}


def _base(name) -> str | None:
    """ "zh_CN.UTF-8" / "zh-Hans" / "en_US@euro" -> "zh_CN" / "zh_Hans" / "en_US"; None for "C"."""
    if not isinstance(name, str):
        return None
    base = name.split(".")[0].split("@")[0].replace("-", "_").strip()
    return None if not base or base.upper() in ("C", "POSIX") else base


def match(name: str | None) -> str | None:
    """The one of LANGUAGES a locale or language name asks for: the same name, else the first of
    the same language (every Chinese variant gets the Simplified catalog, closer for a
    Traditional reader than English); None when no language of that name is offered."""
    base = _base(name)
    if base is None:
        return None
    for language in LANGUAGES:
        if language.lower() == base.lower():
            return language
    primary = base.lower().split("_")[0]
    return next((lang for lang in LANGUAGES if lang.lower().split("_")[0] == primary), None)


def normalize(name: str | None) -> str | None:
    """A locale or language name ("zh_CN.UTF-8", "zh-Hans", "en_US", "C") -> one of LANGUAGES
    (English for one without a catalog), or None when it names no language."""
    if _base(name) is None:
        return None
    return match(name) or SOURCE_LANGUAGE


def _windows_ui_language() -> str | None:
    try:
        import ctypes

        lang_id = ctypes.windll.kernel32.GetUserDefaultUILanguage()
    except (AttributeError, OSError):
        return None
    return locale.windows_locale.get(lang_id)


def system_language(environ=None, platform: str | None = None) -> str:
    """The language the user's system asks for. POSIX: the first set of LC_ALL, LC_MESSAGES, LANG
    decides, and GNU's LANGUAGE priority list overrides it unless the locale is C (as gettext
    does). Windows: the user's display language, then the locale."""
    env = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    posix = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), None)
    if posix is not None and normalize(posix) is not None:
        for entry in (env.get("LANGUAGE") or "").split(":"):
            if normalize(entry):
                return normalize(entry)
        return normalize(posix)
    if platform == "win32":
        found = normalize(_windows_ui_language())
        if found:
            return found
    try:
        found = normalize(locale.getlocale(locale.LC_CTYPE)[0])
    except (ValueError, TypeError):
        found = None
    return found or SOURCE_LANGUAGE


def _catalog(wanted: str) -> tuple[str, gettext.NullTranslations]:
    """(language, catalog): English when `wanted`'s catalog is missing or damaged."""
    translation: gettext.NullTranslations = gettext.NullTranslations()
    if wanted != SOURCE_LANGUAGE:
        try:
            with open(catalog_file(wanted), "rb") as fp:
                translation = gettext.GNUTranslations(fp)
        except (OSError, ValueError, UnicodeDecodeError, struct.error):
            wanted = SOURCE_LANGUAGE
    return wanted, translation


def set_language(language: str | None) -> str:
    """Use `language` ("en", "zh_CN", or None/"system" for the system's) from now on, in every
    thread; returns the language in effect (English when its catalog is missing or damaged)."""
    global _translation, _language
    wanted = (
        system_language()
        if language in (None, "system")
        else normalize(language) or SOURCE_LANGUAGE
    )
    _language, _translation = _catalog(wanted)
    return _language


@contextlib.contextmanager
def language_in_context(language: str):
    """`language` ("en", "zh_CN") for the code run inside, in this context only (an asyncio
    task, and the threads it hands work to with the context copied): the speech server speaks
    each client's language whatever the window's is (tests/server/test_server_language.py)."""
    wanted = normalize(language) or SOURCE_LANGUAGE
    if wanted not in _catalogs:
        _catalogs[wanted] = _catalog(wanted)
    token = _in_context.set(_catalogs[wanted])
    try:
        yield
    finally:
        _in_context.reset(token)


def _active() -> tuple[str, gettext.NullTranslations]:
    return _in_context.get() or (_language, _translation)


def current_language() -> str:
    return _active()[0]


class Phrase(str):
    """A translated sentence that remembers its English source and the values put into it, so a
    window can show it again after the language changes (again(); test_again_follows_the_language)."""

    def __new__(cls, text: str, source: str, fields=None):
        phrase = super().__new__(cls, text)
        phrase.source, phrase.fields = source, fields
        return phrase

    def format(self, *args, **kwargs) -> Phrase:
        return Phrase(
            str.format(self, *args, **kwargs),
            self.source,
            ([_kept(a) for a in args], {k: _kept(v) for k, v in kwargs.items()}),
        )

    def __reduce__(self):
        return Phrase, (str(self), self.source, self.fields)


def _kept(value):
    """A field as again() needs it: numbers stay numbers, so "{n:.1f}" formats them again (a NumPy
    scalar too); anything else is kept as text: it is shown, never called, and the phrase must
    pickle (farm workers) (test_again_keeps_number_formats)."""
    if isinstance(value, (str, int, float)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return str(value)


def _(message: str) -> str:
    return Phrase(_active()[1].gettext(message), message)


def again(text):
    """`text` in the current language when it came from _() (its fields too); other text as it is."""
    if not isinstance(text, Phrase):
        return text
    phrase = Phrase(_active()[1].gettext(text.source), text.source)
    if text.fields is None:
        return phrase
    args, kwargs = text.fields
    try:
        return phrase.format(*[again(a) for a in args], **{k: again(v) for k, v in kwargs.items()})
    except (ValueError, KeyError, IndexError):  # a field kept as text under a number's format
        return text


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active()[1].ngettext(singular, plural, n)


# How sentences and clauses are put side by side: Chinese sets no space after its full-width
# punctuation. English is the default for any language not listed.
_SENTENCE_SEPARATOR = {"zh_CN": ""}
_CLAUSE_SEPARATOR = {"zh_CN": "；"}
_ITEM_SEPARATOR = {"zh_CN": "、"}


def join_sentences(parts) -> str:
    """Whole sentences (each with its own full stop) in a row, skipping empty ones."""
    return _SENTENCE_SEPARATOR.get(current_language(), " ").join(p for p in parts if p)


def join_clauses(parts) -> str:
    """Clauses of one list ("a; b; c"), skipping empty ones."""
    return _CLAUSE_SEPARATOR.get(current_language(), "; ").join(p for p in parts if p)


def join_items(parts) -> str:
    """Names in a list ("a, b, c"; in Chinese "a、b、c"), skipping empty ones."""
    return _ITEM_SEPARATOR.get(current_language(), ", ").join(p for p in parts if p)


def N_(message: str) -> str:
    """Marks a constant for extraction; translate it with _() where it is shown."""
    return message
