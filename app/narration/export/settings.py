"""How a narration is exported, as stored in the project file (and therefore hostile JSON).

`parse_settings` keeps every valid field and drops a bad one back to its default with a
sentence, so a damaged settings record never stops an export nor silently changes the rest.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.i18n import N_, _
from app.narration.formats import FORMATS, LOUDNESS_RANGE, SUBTITLE_FORMATS  # noqa: F401  (re-exported)

AudioFormat = Literal["wav", "flac", "mp3", "ogg", "opus", "m4a", "m4b"]
SubtitleFormat = Literal["srt", "vtt"]
LOSSLESS = ("wav", "flac")

# Ranges a person could mean; anything outside is a damaged file or a typo.
MAX_SENTENCE_PAUSE = 10.0
MAX_CHAPTER_PAUSE = 30.0
BITRATE_RANGE = (8, 320)
# Peaks stay under this (dBTP), whatever the loudness target: EBU R128 / ACX headroom for lossy codecs.
TRUE_PEAK_CEILING = -1.0


class ExportSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", allow_inf_nan=False)

    format: AudioFormat = "mp3"
    one_file: bool = True  # the whole narration in one file
    per_chapter: bool = False  # and/or one file per chapter
    subtitles: SubtitleFormat | None = None
    loudness: float | None = Field(
        default=-18.0, ge=LOUDNESS_RANGE[0], le=LOUDNESS_RANGE[1]
    )  # LUFS; None = as rendered
    sentence_pause: float = Field(default=0.35, ge=0.0, le=MAX_SENTENCE_PAUSE)  # seconds
    chapter_pause: float = Field(
        default=1.5, ge=0.0, le=MAX_CHAPTER_PAUSE
    )  # seconds, one-file export
    bitrate: int | None = Field(
        default=None, ge=BITRATE_RANGE[0], le=BITRATE_RANGE[1]
    )  # kbit/s; None = the codec's default

    @model_validator(mode="after")
    def _something_to_write(self):
        if not (self.one_file or self.per_chapter):
            raise ValueError("one_file or per_chapter")
        return self


_FIELD_NAMES = {
    "format": N_("the format"),
    "one_file": N_("one file"),
    "per_chapter": N_("one file per chapter"),
    "subtitles": N_("the subtitles"),
    "loudness": N_("the loudness"),
    "sentence_pause": N_("the pause between sentences"),
    "chapter_pause": N_("the pause between chapters"),
    "bitrate": N_("the bitrate"),
}


def parse_settings(data: Any) -> tuple[ExportSettings, list[str]]:
    """Settings from stored JSON, and a sentence per field that was bad and is now its default."""
    if not isinstance(data, dict):
        return ExportSettings(), (
            []
            if data is None
            else [_("The export settings were unreadable; the defaults are used.")]
        )
    values = {k: v for k, v in data.items() if k in ExportSettings.model_fields}
    notices: list[str] = []
    for _attempt in range(len(ExportSettings.model_fields) + 1):
        try:
            return ExportSettings.model_validate(values), notices
        except ValidationError as exc:
            bad = {
                str(err["loc"][0]) for err in exc.errors() if err["loc"] and err["loc"][0] in values
            }
            if not bad:  # the cross-field rule: neither one file nor per chapter
                bad = {k for k in ("one_file", "per_chapter") if k in values}
            if not bad:
                break
            for name in sorted(bad):
                values.pop(name)
                notices.append(
                    _("The export setting for {field} was not valid; the default is used.").format(
                        field=_(_FIELD_NAMES[name])
                    )
                )
    return ExportSettings(), notices + [
        _("The export settings were unreadable; the defaults are used.")
    ]
