"""A stand-in engine for narration renders whose takes are real speech: its decoder answers each
sentence with the committed espeak-ng recording of that text (tests/data/takes), made a little
louder or quieter by the request's seed (so another seed is another take), and returns an
injected defect instead on the first try of the sentences it is told to spoil.

It has the engine's face the Renderer uses (submit -> job, call, synthesizer)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from scipy.signal import resample_poly

from app.core import ModelKind
from app.narration.source import SourceChapter, SourceDocument, SourceSentence
from tests.engine.take_fixtures import fixtures

RATE = 24_000  # the project's takes
TEXTS = {name: text for name, (_lang, text, _audio) in fixtures().items()}
EN = ["en_en-us_0.flac", "en_en-us_1.flac", "en_en-us_2.flac", "en_reference.flac"]
ZH = ["zh_cmn_0.flac", "zh_cmn_1.flac", "zh_reference.flac"]


def speech_book() -> SourceDocument:
    """Two chapters whose sentences are the recordings' texts, one voice each."""
    return SourceDocument(
        "Recorded",
        "text",
        (
            SourceChapter("English", tuple(SourceSentence(TEXTS[n]) for n in EN)),
            SourceChapter("Chinese", tuple(SourceSentence(TEXTS[n]) for n in ZH)),
        ),
    )


def recording(text: str, name: str | None = None) -> np.ndarray:
    """The recording of `text` (the file `name` where two say it), at the project's rate."""
    for file, (_lang, said, audio) in fixtures().items():
        if said == text and (file == name if name else "_other" not in file):
            return resample_poly(audio, 3, 2).astype(np.float32)
    raise KeyError(text)


def silence(audio: np.ndarray) -> np.ndarray:
    return np.random.default_rng(0).normal(0, 1e-4, len(audio)).astype(np.float32)


def truncated(audio: np.ndarray) -> np.ndarray:
    """Cut inside a word, 60% through the speech."""
    loud = np.flatnonzero(np.abs(audio) > 0.05 * np.abs(audio).max())
    start, end = int(loud[0]), int(loud[-1])
    cut = start + int((end - start) * 0.6)
    return audio[: cut + int(np.argmax(np.abs(audio[cut : cut + 2400])))]


def repeated(audio: np.ndarray) -> np.ndarray:
    return np.concatenate([audio, np.zeros(RATE // 4, np.float32), audio])


def other_voice(audio: np.ndarray) -> np.ndarray:
    """A sentence of about the same length said by a voice of the other sex."""
    return recording(TEXTS["en_other_speaker.flac"], "en_other_speaker.flac")


DEFECTS = {
    "silence": silence,
    "truncated": truncated,
    "repeated": repeated,
    "other_voice": other_voice,
}


@dataclass
class _Job:
    audio: np.ndarray

    def result(self, on_chunk=None):
        return SimpleNamespace(audio=self.audio, sample_rate=RATE, decode="stand-in")

    def cancel(self) -> None:
        pass


class _Synthesizer:
    model_kind = ModelKind.OFFICIAL

    def speaker_for_seed(self, seed: int) -> str:
        return f"speaker-{seed}"

    def reference_from_audio(self, audio, text: str):
        return f"codes-{len(audio)}", text


class SpeechEngine:
    """`spoil`: text -> defect name, or (defect name, tries it spoils; None: every try)."""

    def __init__(self, spoil: dict[str, str | tuple[str, int | None]] | None = None):
        self.synthesizer = _Synthesizer()
        self.spoil = {t: d if isinstance(d, tuple) else (d, 1) for t, d in (spoil or {}).items()}
        self.requests: list[tuple[str, int]] = []  # (text, seed) in the order asked
        self._lock = threading.Lock()

    def submit(self, request, priority=None) -> _Job:
        text = request.text
        with self._lock:
            tries = sum(1 for t, _s in self.requests if t == text)
            self.requests.append((text, request.seed))
        audio = recording(text) * np.float32(0.6 + 0.4 * (request.seed % 97) / 97)
        defect, spoiled = self.spoil.get(text, (None, 0))
        if defect is not None and (spoiled is None or tries < spoiled):
            audio = DEFECTS[defect](audio)
        return _Job(audio.astype(np.float32))

    def call(self, work, timeout=None):
        return work()
