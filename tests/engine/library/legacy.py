"""Verbatim copies of the JSON writers of ChatTTS Studio before the library (commit 55fe23c:
app/history.py, app/engine/voice_library.py, app/text/pronunciations.py), so that the import
is tested with files written by that code, not with files we imagine it wrote."""

# ---- app/history.py ----
from __future__ import annotations

import dataclasses
import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np

from app import paths
from app.atomic import read_json, write_json_atomic
from app.audio.wav import write_wav
from app.core.request import SamplingParams, SynthesisRequest, SynthesisResult

log = logging.getLogger("chattts_studio.history")

MAX_ENTRIES = 200  # older results (and their WAVs) are dropped beyond this


@dataclass
class HistoryEntry:
    id: str
    text: str
    request: dict
    duration: float
    created: str
    device: str
    synth_seconds: float
    test_model: bool
    speaker: str = ""
    wav: str = field(default="")

    def to_request(self) -> SynthesisRequest:
        """The same settings again, for "regenerate"."""
        data = dict(self.request)
        sampling = SamplingParams(**data.pop("sampling", {}))
        known = {f.name for f in dataclasses.fields(SynthesisRequest)}
        return SynthesisRequest(sampling=sampling, **{k: v for k, v in data.items() if k in known})


class HistoryStore:
    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else paths.data_dir() / "history"
        self._index = self.root / "index.json"

    def entries(self) -> list[HistoryEntry]:
        """Newest first; entries whose WAV has gone are skipped."""
        raw = read_json(self._index, [])
        out = []
        for item in raw if isinstance(raw, list) else []:
            try:
                entry = HistoryEntry(**item)
            except TypeError:
                continue
            if (self.root / entry.wav).is_file():
                out.append(entry)
        return out

    def _save(self, entries: list[HistoryEntry]) -> None:
        write_json_atomic(self._index, [dataclasses.asdict(e) for e in entries])

    # Today's result no longer carries the flag (the model's kind is asked of the model): the
    # test gives it, as that code's result did.
    def add(
        self, request: SynthesisRequest, result: SynthesisResult, test_model: bool = False
    ) -> HistoryEntry:
        entry_id = datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        wav_name = f"{entry_id}.wav"
        self.root.mkdir(parents=True, exist_ok=True)
        write_wav(self.root / wav_name, result.audio, result.sample_rate)
        entry = HistoryEntry(
            id=entry_id,
            text=request.text,
            request=dataclasses.asdict(request),
            duration=round(result.duration, 3),
            created=datetime.now().isoformat(timespec="seconds"),
            device=result.device,
            synth_seconds=round(result.synth_seconds, 3),
            test_model=test_model,
            speaker=result.speaker,
            wav=wav_name,
        )
        entries = [entry] + self.entries()
        for old in entries[MAX_ENTRIES:]:
            (self.root / old.wav).unlink(missing_ok=True)
        self._save(entries[:MAX_ENTRIES])
        return entry

    def get(self, entry_id: str) -> HistoryEntry | None:
        return next((e for e in self.entries() if e.id == entry_id), None)

    def wav_path(self, entry: HistoryEntry) -> Path:
        return self.root / entry.wav

    def audio(self, entry: HistoryEntry) -> tuple[np.ndarray, int]:
        import soundfile as sf

        data, rate = sf.read(str(self.wav_path(entry)), dtype="float32")
        return data.reshape(-1), rate

    def delete(self, entry_id: str) -> None:
        entries = self.entries()
        for e in entries:
            if e.id == entry_id:
                (self.root / e.wav).unlink(missing_ok=True)
        self._save([e for e in entries if e.id != entry_id])


# ---- app/engine/voice_library.py ----
import re  # noqa: E402
from dataclasses import asdict  # noqa: E402
from datetime import timezone  # noqa: E402

from app.core.errors import VoiceError  # noqa: E402


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class Voice:
    name: str
    speaker: str  # base16384 speaker embedding ("" for a reference-only voice)
    seed: int | None = None
    notes: str = ""
    created: str = field(default_factory=_now)
    reference: str | None = None  # audio codes of a reference recording (ChatTTS spk_smp)
    reference_text: str | None = None  # what is said in that recording


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
            if (
                isinstance(data, dict)
                and data.get("name")
                and (data.get("speaker") or data.get("reference"))
            ):
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


# ---- app/text/pronunciations.py ----
class PronunciationDictionary:
    def __init__(self, path: Path | None = None):
        self.path = Path(path) if path else paths.data_dir() / "pronunciations.json"
        raw = read_json(self.path, {})
        self.entries: dict[str, str] = (
            {str(k): str(v) for k, v in raw.items()} if isinstance(raw, dict) else {}
        )

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
