"""Saved voices: one small JSON file per voice in the user data folder.

A file per voice (rather than one list) means a voice can be copied to another machine or
shared by sending one file, and a damaged file loses one voice, not all of them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from app import paths
from app.atomic import read_json, write_json_atomic
from app.engine.errors import VoiceError


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Voice:
    name: str
    speaker: str                        # base16384 speaker embedding ("" for a reference-only voice)
    seed: int | None = None
    notes: str = ""
    created: str = field(default_factory=_now)
    reference: str | None = None        # audio codes of a reference recording (ChatTTS spk_smp)
    reference_text: str | None = None   # what is said in that recording

FIELDS = ("name", "speaker", "seed", "notes", "created", "reference", "reference_text")


def _file_stem(name: str) -> str:
    # Keep letters of any script (Chinese names stay readable), drop what Windows forbids.
    stem = re.sub(r'[<>:"/\\|?*\x00-\x1f]+', "_", name).strip(" .")
    return stem[:80] or "voice"


class VoiceLibrary:
    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else paths.data_dir() / "voices"

    def _path(self, name: str) -> Path:
        """The voice's file: its existing one, else a free name (two names may share a stem)."""
        stem = _file_stem(name)
        candidate, n = self.root / f"{stem}.json", 1
        while candidate.exists():
            data = read_json(candidate, None)
            if not isinstance(data, dict) or data.get("name") == name:
                return candidate
            n += 1
            candidate = self.root / f"{stem}-{n}.json"
        return candidate

    def list(self) -> list[Voice]:
        voices = []
        for path in sorted(self.root.glob("*.json")):
            data = read_json(path, None)
            if isinstance(data, dict) and data.get("name") and (data.get("speaker") or data.get("reference")):
                voices.append(Voice(**{k: data[k] for k in FIELDS if k in data}))
        return sorted(voices, key=lambda v: v.name.casefold())

    def get(self, name: str) -> Voice | None:
        return next((v for v in self.list() if v.name == name), None)

    def save(self, voice: Voice) -> Voice:
        name = voice.name.strip()
        if not name:
            raise VoiceError("Give the voice a name before saving it.")
        voice.name = name
        write_json_atomic(self._path(name), asdict(voice))
        return voice

    def delete(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)
