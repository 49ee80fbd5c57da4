"""Export: rendered chapters -> audio files (WAV, FLAC, MP3, Ogg Vorbis, Opus, M4A/M4B), with
chapter marks, subtitles (SRT, WebVTT), loudness to a target, every file written atomically.

    settings.py        ExportSettings (hostile JSON from the project file) and parse_settings
    timeline.py        a chapter's sentences with pauses or at their cue times -> audio + spans
    loudness.py        EBU R128 loudness to a target, true peak under -1 dBTP
    resample.py        rates a codec needs
    sndfile_writer.py  WAV/FLAC/MP3/OGG/Opus (libsndfile)
    aac_writer.py      M4A/M4B with chapters (PyAV)
    mp3_chapters.py    ID3 CHAP/CTOC (mutagen)
    subtitles.py       SRT and WebVTT text
    paths.py           where the files go; staging.py writes them all or none
    exporter.py        export(), the ExportReport (report.py)
"""

from app.narration.export.errors import ExportCancelled, ExportError
from app.narration.export.exporter import export
from app.narration.export.paths import format_for_path
from app.narration.export.report import ExportedFile, ExportReport, FlaggedSentence
from app.narration.export.settings import FORMATS, SUBTITLE_FORMATS, ExportSettings, parse_settings
from app.narration.export.timeline import CueOverflow

__all__ = [
    "FORMATS",
    "SUBTITLE_FORMATS",
    "CueOverflow",
    "ExportCancelled",
    "ExportError",
    "ExportReport",
    "ExportSettings",
    "ExportedFile",
    "FlaggedSentence",
    "export",
    "format_for_path",
    "parse_settings",
]
