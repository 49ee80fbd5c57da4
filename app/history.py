"""Results kept across restarts: an index file and one WAV per result in the user data folder."""

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
from app.engine.audio_io import write_wav
from app.engine.request import SamplingParams, SynthesisRequest, SynthesisResult

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

    def add(self, request: SynthesisRequest, result: SynthesisResult) -> HistoryEntry:
        entry_id = datetime.now().strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
        wav_name = f"{entry_id}.wav"
        self.root.mkdir(parents=True, exist_ok=True)
        write_wav(self.root / wav_name, result.audio, result.sample_rate)
        entry = HistoryEntry(
            id=entry_id, text=request.text, request=dataclasses.asdict(request),
            duration=round(result.duration, 3), created=datetime.now().isoformat(timespec="seconds"),
            device=result.device, synth_seconds=round(result.synth_seconds, 3),
            test_model=result.test_model, speaker=result.speaker, wav=wav_name,
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
