"""The body of POST /v1/audio/speech, as OpenAI defines it, and how it maps onto ours."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.core import SPEED_RANGE
from app.server.encoders import FORMATS

MODEL_ID = "chattts"
# OpenAI's model names, accepted so that tools with them hard-coded work unchanged.
MODEL_ALIASES = ("tts-1", "tts-1-hd")
MODELS = (MODEL_ID, *MODEL_ALIASES)
MAX_INPUT_CHARS = 4096
# A speaker string is about 1.1 KB for the official model (MAX_SPEAKER_CHARS bounds any model).
MAX_VOICE_CHARS = 24_000
# The whole body: input (4096 characters, up to 6 bytes each as JSON escapes) and a speaker
# string, with room for the other fields. Larger bodies are refused before they are parsed.
MAX_BODY_BYTES = 64 * 1024


class SpeechRequest(BaseModel):
    # Fields OpenAI may add later (and `instructions`, which ChatTTS cannot follow) are ignored
    # rather than refused, so that newer clients keep working.
    model_config = ConfigDict(extra="ignore")

    model: str = Field(max_length=200)
    input: str = Field(max_length=MAX_INPUT_CHARS)
    voice: str = Field(max_length=MAX_VOICE_CHARS)
    response_format: Literal[FORMATS] = "mp3"  # type: ignore[valid-type]
    speed: float = Field(default=1.0, ge=0.25, le=4.0)
    stream_format: Literal["audio", "sse"] = "audio"
    instructions: str | None = Field(default=None, max_length=MAX_INPUT_CHARS)


def chattts_speed(speed: float) -> int:
    """OpenAI's speed factor (0.25-4.0, 1.0 normal) as ChatTTS's [speed_N] level (0-9, 5
    normal): each doubling of the factor adds two levels, so 0.25 -> 1, 0.5 -> 3, 1 -> 5,
    2 -> 7, 4 -> 9. ChatTTS's levels are coarse prompt tokens, not an exact time stretch."""
    low, high = SPEED_RANGE
    return max(low, min(high, round(5 + 2 * math.log2(speed))))
