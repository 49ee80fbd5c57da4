"""Plain data that goes into and comes out of the synthesizer (and across Qt signals)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# ChatTTS-ui's default voice seed: on the official weights it is the same voice there.
DEFAULT_SEED = 2222


@dataclass
class SamplingParams:
    """Audio-token sampling, with ChatTTS's defaults."""

    temperature: float = 0.3
    top_p: float = 0.7
    top_k: int = 20
    repetition_penalty: float = 1.05
    max_new_tokens: int = 2048
    min_new_tokens: int = 0           # the end token is barred before this many (benchmarks)


@dataclass
class SynthesisRequest:
    text: str
    seed: int = DEFAULT_SEED          # picks the voice (unless `speaker` is given) and seeds sampling
    speaker: str | None = None        # base16384 speaker string; overrides the seed's voice
    sampling: SamplingParams = field(default_factory=SamplingParams)
    refine_text: bool = True          # let the model add pauses and fillers first
    speed: int = 5                    # [speed_N], 0-9
    oral: int | None = None           # [oral_N] for refinement, 0-9
    laugh: int | None = None          # [laugh_N] for refinement, 0-2
    break_level: int | None = None    # [break_N] for refinement, 0-7
    voice_lock: bool = True           # later sentences copy the first one's voice
    reference: str | None = None      # audio codes of a reference recording (overrides the lock)
    reference_text: str | None = None # the transcript of that recording

    def code_prompt(self) -> str:
        return f"[speed_{_clamp(self.speed, 0, 9)}]"

    def refine_prompt(self) -> str:
        parts = []
        if self.oral is not None:
            parts.append(f"[oral_{_clamp(self.oral, 0, 9)}]")
        if self.laugh is not None:
            parts.append(f"[laugh_{_clamp(self.laugh, 0, 2)}]")
        if self.break_level is not None:
            parts.append(f"[break_{_clamp(self.break_level, 0, 7)}]")
        return "".join(parts)


def _clamp(value: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, int(value)))


@dataclass
class AudioChunk:
    """Audio of a segment, in reading order: the whole segment, or one streamed piece of it."""

    index: int
    total: int
    samples: np.ndarray       # float32, mono
    sample_rate: int
    final: bool = True        # the segment's last piece


@dataclass
class SynthesisResult:
    audio: np.ndarray         # float32, mono, all segments joined
    sample_rate: int
    device: str
    speaker: str
    seed: int
    segments: int
    synth_seconds: float
    test_model: bool          # random weights: the audio is noise, not speech
    warnings: list[str] = field(default_factory=list)
    spoken_text: str = ""     # what the model was given, after normalization
    decode: str = ""          # what decoded it: "upstream" or our loop, e.g. "jit-fp32"
    @property
    def duration(self) -> float:
        return len(self.audio) / float(self.sample_rate)

    @property
    def realtime_factor(self) -> float | None:
        return self.synth_seconds / self.duration if self.duration else None
