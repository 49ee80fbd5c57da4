"""Audio out of the engine: WAV files, the speaker, the token grid streamed pieces lie on
(piece_grid.py: no torch; the decode's vocoder cuts on it, the player times by it), and the
take checker (takes/: is a take of a sentence usable?)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.lazy_face import lazy_face

if TYPE_CHECKING:
    from app.audio.buffering import BufferState
    from app.audio.piece_grid import (
        DEFAULT_FIRST_LOOKAHEAD,
        DEFAULT_FIRST_PIECE,
        DEFAULT_LOOKAHEAD,
        DEFAULT_MAX_PIECE,
        DEFAULT_MIN_PIECE,
        SAMPLES_PER_TOKEN,
        piece_size,
    )
    from app.audio.playback import AudioOutput, SoundDeviceOutput, list_output_devices
    from app.audio.stretch import SPEED_MAX, SPEED_MIN, time_stretch
    from app.audio.takes.checker import (
        Expectation,
        MeasuredTake,
        check_take,
        judge_take,
        measure_take,
        voice_embedding,
    )
    from app.audio.takes.expected import SpeakingRate, guess_language, text_units
    from app.audio.takes.findings import Finding, FindingKind, TakeReport
    from app.audio.takes.model_files import TakeModelMissing
    from app.audio.timeline import PlayTimeline
    from app.audio.wav import SAMPLE_RATE, check_output_path, explain_os_error, to_pcm16, write_wav

__all__ = [
    "DEFAULT_FIRST_LOOKAHEAD",
    "DEFAULT_FIRST_PIECE",
    "DEFAULT_LOOKAHEAD",
    "DEFAULT_MAX_PIECE",
    "DEFAULT_MIN_PIECE",
    "SAMPLES_PER_TOKEN",
    "SAMPLE_RATE",
    "SPEED_MAX",
    "SPEED_MIN",
    "AudioOutput",
    "BufferState",
    "Expectation",
    "Finding",
    "FindingKind",
    "MeasuredTake",
    "PlayTimeline",
    "SoundDeviceOutput",
    "SpeakingRate",
    "TakeModelMissing",
    "TakeReport",
    "check_output_path",
    "check_take",
    "explain_os_error",
    "guess_language",
    "judge_take",
    "list_output_devices",
    "measure_take",
    "piece_size",
    "text_units",
    "time_stretch",
    "to_pcm16",
    "voice_embedding",
    "write_wav",
]

# Each name's module loads when the name is first read (tests/checks/test_package_faces.py).
__getattr__ = lazy_face(
    __name__,
    {
        "AudioOutput": "app.audio.playback",
        "BufferState": "app.audio.buffering",
        "DEFAULT_FIRST_LOOKAHEAD": "app.audio.piece_grid",
        "DEFAULT_FIRST_PIECE": "app.audio.piece_grid",
        "DEFAULT_LOOKAHEAD": "app.audio.piece_grid",
        "DEFAULT_MAX_PIECE": "app.audio.piece_grid",
        "DEFAULT_MIN_PIECE": "app.audio.piece_grid",
        "PlayTimeline": "app.audio.timeline",
        "SAMPLES_PER_TOKEN": "app.audio.piece_grid",
        "SAMPLE_RATE": "app.audio.wav",
        "Expectation": "app.audio.takes.checker",
        "Finding": "app.audio.takes.findings",
        "FindingKind": "app.audio.takes.findings",
        "MeasuredTake": "app.audio.takes.checker",
        "SPEED_MAX": "app.audio.stretch",
        "SPEED_MIN": "app.audio.stretch",
        "SoundDeviceOutput": "app.audio.playback",
        "SpeakingRate": "app.audio.takes.expected",
        "TakeModelMissing": "app.audio.takes.model_files",
        "TakeReport": "app.audio.takes.findings",
        "check_output_path": "app.audio.wav",
        "check_take": "app.audio.takes.checker",
        "explain_os_error": "app.audio.wav",
        "guess_language": "app.audio.takes.expected",
        "judge_take": "app.audio.takes.checker",
        "list_output_devices": "app.audio.playback",
        "measure_take": "app.audio.takes.checker",
        "piece_size": "app.audio.piece_grid",
        "text_units": "app.audio.takes.expected",
        "time_stretch": "app.audio.stretch",
        "to_pcm16": "app.audio.wav",
        "voice_embedding": "app.audio.takes.checker",
        "write_wav": "app.audio.wav",
    },
)
