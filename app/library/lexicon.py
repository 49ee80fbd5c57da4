"""The user's pronunciation dictionary: word -> what to say instead, applied before anything else.

Latin words match whole words, ignoring case ("SQL" also matches "sql"); other entries
(Chinese) match anywhere. Longer entries win, so "重庆" can be fixed without touching "重".
`save()` writes only what changed since loading, in one transaction, so two running copies
that edit different words both keep their edits.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from app.core import RecordError, insert, select
from app.i18n import _
from app.library.db import Library, as_library
from app.library.records import LexiconEntry, parse
from app.library.schema import LEXICON_COLUMNS

log = logging.getLogger("chattts_studio.lexicon")


class PronunciationDictionary:
    def __init__(self, library: Library | Path | str | None = None):
        self.library = as_library(library)
        self.entries: dict[str, str] = {}
        for row in self.library.named_rows(f"SELECT {select(LEXICON_COLUMNS)} FROM lexicon"):
            try:
                entry = parse(
                    LexiconEntry,
                    {c: row[c] for c in LEXICON_COLUMNS},
                    _("{file} (pronunciation)").format(file=self.library.path),
                )
            except RecordError as exc:
                log.warning("%s", exc)
                continue
            self.entries[entry.word] = entry.replacement
        self._saved = dict(self.entries)

    def save(self) -> None:
        current = {}
        for word, replacement in self.entries.items():
            entry = parse(
                LexiconEntry,
                {"word": str(word).strip(), "replacement": str(replacement)},
                _("pronunciation '{word}'").format(word=str(word)[:40]),
            )
            current[entry.word] = entry.replacement
        removed = [w for w in self._saved if w not in current]
        changed = [(w, r) for w, r in current.items() if self._saved.get(w) != r]
        with self.library.transaction() as con:
            con.executemany("DELETE FROM lexicon WHERE word = ?", [(w,) for w in removed])
            con.executemany(
                insert("lexicon", LEXICON_COLUMNS)
                + " ON CONFLICT(word) DO UPDATE SET replacement = excluded.replacement",
                [{"word": w, "replacement": r} for w, r in changed],
            )
        self.entries = current
        self._saved = dict(current)

    def set(self, word: str, replacement: str) -> None:
        word = word.strip()
        if word:
            self.entries[word] = replacement

    def remove(self, word: str) -> None:
        self.entries.pop(word, None)

    def _pattern(self) -> re.Pattern | None:
        if not self.entries:
            return None
        parts = []
        for word in sorted(self.entries, key=len, reverse=True):
            escaped = re.escape(word)
            parts.append(
                rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])" if word.isascii() else escaped
            )
        return re.compile("|".join(parts), re.IGNORECASE)

    def apply(self, text: str) -> str:
        pattern = self._pattern()
        if pattern is None:
            return text
        lookup = {k.lower() if k.isascii() else k: v for k, v in self.entries.items()}

        def replace(m: re.Match) -> str:
            found = m.group(0)
            return lookup.get(found.lower() if found.isascii() else found, found)

        return pattern.sub(replace, text)
