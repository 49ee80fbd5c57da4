"""The user's pronunciation dictionary: word -> what to say instead, applied before anything else.

Stored as JSON in the user data folder. Latin words match whole words, ignoring case
("SQL" also matches "sql"); other entries (Chinese) match anywhere. Longer entries win, so
"重庆" can be fixed without touching "重".
"""

from __future__ import annotations

import re
from pathlib import Path

from app import paths
from app.atomic import read_json, write_json_atomic


class PronunciationDictionary:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else paths.data_dir() / "pronunciations.json"
        raw = read_json(self.path, {})
        self.entries: dict[str, str] = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}

    def save(self) -> None:
        write_json_atomic(self.path, dict(sorted(self.entries.items())))

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
            parts.append(rf"(?<![A-Za-z0-9]){escaped}(?![A-Za-z0-9])" if word.isascii() else escaped)
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
