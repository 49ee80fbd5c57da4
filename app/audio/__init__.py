"""Audio out of the engine: WAV files, the speaker, and the token grid streamed pieces lie on
(piece_grid.py: no torch; the decode's vocoder cuts on it, the player times by it)."""

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
    "PlayTimeline",
    "SoundDeviceOutput",
    "check_output_path",
    "explain_os_error",
    "list_output_devices",
    "piece_size",
    "time_stretch",
    "to_pcm16",
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
        "SPEED_MAX": "app.audio.stretch",
        "SPEED_MIN": "app.audio.stretch",
        "SoundDeviceOutput": "app.audio.playback",
        "check_output_path": "app.audio.wav",
        "explain_os_error": "app.audio.wav",
        "list_output_devices": "app.audio.playback",
        "piece_size": "app.audio.piece_grid",
        "time_stretch": "app.audio.stretch",
        "to_pcm16": "app.audio.wav",
        "write_wav": "app.audio.wav",
    },
)
