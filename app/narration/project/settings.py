"""A project's export settings: JSON in the project file, validated on the way in and out.

Export (app/narration/export) reads these values; a stored value that no longer fits is
replaced by its default with a notice, never passed on.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SETTINGS_JSON = 64_000

AudioFormat = Literal["wav", "flac", "mp3", "ogg", "opus", "m4a", "m4b"]
SubtitleFormat = Literal["none", "srt", "vtt"]


class ExportSettings(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)

    format: AudioFormat = "wav"
    per_chapter: bool = False                 # one file per chapter, else one file with chapter marks
    subtitles: SubtitleFormat = "none"
    loudness: float | None = Field(default=-18.0, ge=-70.0, le=-5.0)    # LUFS; None: as rendered
    peak: float = Field(default=-1.0, ge=-20.0, le=0.0)                  # dBTP ceiling
    sentence_pause: float = Field(default=0.3, ge=0.0, le=10.0)          # seconds
    chapter_pause: float = Field(default=1.5, ge=0.0, le=60.0)
    bitrate_kbps: int = Field(default=128, ge=16, le=512)
