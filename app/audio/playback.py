"""Streaming playback: audio chunks are queued as they are synthesized and played through
an adaptive buffer (buffering.py) that waits only between sentences or in a pause, never
inside a word.

sounddevice needs the PortAudio library and an output device; either can be missing (no
PortAudio on a bare Linux, no sound card on a server, a headset unplugged). Then `problem`
holds the sentence to show once, playback calls do nothing, and export keeps working.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from app.audio.buffering import BufferState, SegmentBuffer
from app.i18n import N_, _

log = logging.getLogger("chattts_studio.playback")

NO_PORTAUDIO = N_(
    "Sound playback is unavailable: the PortAudio library is missing ({detail}). "
    "Export WAV still works."
)
NO_PORTAUDIO_PLAIN = N_(
    "Sound playback is unavailable: the PortAudio library is missing. Export WAV still works."
)
# sounddevice's own words when it finds no library: they add nothing and left English in the
# Chinese banner (test_a_missing_portaudio_is_said_in_the_language_alone).
_NOT_FOUND = "PortAudio library not found"
NO_DEVICE = N_(
    "No audio output device was found, so nothing can be played; Export WAV still works."
)


class AudioOutput:
    """What the window needs from a sound output. Subclasses: real device, or a test fake."""

    problem: str | None = None
    state_listener: Callable[[BufferState], None] | None = None

    def set_state_listener(self, listener: Callable[[BufferState], None] | None) -> None:
        """`listener(BufferState)` hears when playback waits for audio (BUFFERING) and resumes;
        it may be called from the audio thread."""
        self.state_listener = listener

    def start(self, sample_rate: int) -> None:
        """Begin a new stream; anything still playing is dropped."""

    def enqueue(
        self, samples: np.ndarray, segment: int = 0, final: bool = False, vocoder_s: float = 0.0
    ) -> None:
        """Append audio of segment `segment` (`final`: its last piece; `vocoder_s`: the seconds
        the producer's vocoder took to make it, 0 if not known); returns at once."""

    def end_stream(self) -> None:
        """No more audio will come: play what is queued, then stop."""

    def stop(self) -> None:
        """Silence now and drop anything queued."""

    def is_active(self) -> bool:
        return False

    def played_samples(self) -> int:
        """Samples of this stream's audio the sound card has played (waits not counted): the
        read-along follows this, not what was decoded."""
        return 0

    def pause(self) -> None:
        """Hold playback where it is (the queue is kept); `resume` goes on from there."""

    def resume(self) -> None:
        """Go on after `pause`."""

    @property
    def paused(self) -> bool:
        return False


def list_output_devices() -> tuple[list[str], str | None]:
    """(names of output devices, the default's name); empty when PortAudio is missing."""
    try:
        import sounddevice as sd

        devices = sd.query_devices()
        names = [d["name"] for d in devices if d.get("max_output_channels", 0) > 0]
        default_index = sd.default.device[1]
        default = (
            devices[default_index]["name"]
            if default_index is not None and default_index >= 0
            else None
        )
        return names, default
    except Exception as exc:  # OSError without PortAudio, PortAudioError without devices
        log.info("no output devices: %s", exc)
        return [], None


class SoundDeviceOutput(AudioOutput):
    def __init__(self, device: str | None = None, clock: Callable[[], float] = time.monotonic):
        self.device = device or None
        self._clock = clock
        self._sd: Any = None  # the sounddevice module once it loads (untyped)
        self._stream: Any = None  # its OutputStream
        self._buffer: SegmentBuffer | None = None
        self._paused = False
        self._latency = 0  # samples between the callback and the speaker, per the stream
        self.problem = self._probe()

    def _probe(self) -> str | None:
        try:
            import sounddevice as sd
        except OSError as exc:
            log.info("sounddevice could not be loaded: %s", exc)
            if str(exc) == _NOT_FOUND:
                return _(NO_PORTAUDIO_PLAIN)
            return _(NO_PORTAUDIO).format(detail=exc)
        self._sd = sd
        names, _default = list_output_devices()
        if not names:
            return _(NO_DEVICE)
        if self.device and self.device not in names:
            log.warning("output device %r not found; using the default", self.device)
            self.device = None
        return None

    def _callback(self, outdata, frames, _time, _status) -> None:
        buffer = self._buffer
        if buffer is None:
            outdata[:, 0] = 0.0
            raise self._sd.CallbackStop
        if self._paused:
            outdata[:, 0] = 0.0  # silence; the buffer keeps its place
            return
        samples, over = buffer.pull(frames)
        outdata[:, 0] = samples  # silence while the buffer waits at a sentence boundary
        if over:
            raise self._sd.CallbackStop

    def start(self, sample_rate: int) -> None:
        if self.problem:
            return
        self.stop()
        self._paused = False
        self._buffer = SegmentBuffer(sample_rate, self._clock, self._relay_state)
        try:
            self._stream = self._sd.OutputStream(
                samplerate=sample_rate,
                channels=1,
                dtype="float32",
                device=self.device,
                callback=self._callback,
            )
            self._stream.start()
            # PortAudio's estimate of the time from the callback to the speaker (a test's
            # fake card has none).
            self._latency = int(float(getattr(self._stream, "latency", 0.0) or 0.0) * sample_rate)
        except Exception as exc:
            self._stream = None
            self._buffer = None
            self.problem = _(
                "The sound device could not be opened ({error}); Export WAV still works."
            ).format(error=exc)
            log.warning("output stream failed: %s", exc)

    def _relay_state(self, state: BufferState) -> None:
        listener = self.state_listener
        if listener is not None:
            listener(state)

    def enqueue(
        self, samples: np.ndarray, segment: int = 0, final: bool = False, vocoder_s: float = 0.0
    ) -> None:
        buffer = self._buffer
        if self._stream is None or buffer is None:
            return
        buffer.push(samples, segment, final, vocoder_s)

    def end_stream(self) -> None:
        buffer = self._buffer
        if buffer is not None:
            buffer.end()

    def stop(self) -> None:
        stream, self._stream = self._stream, None
        buffer, self._buffer = self._buffer, None
        self._paused = False
        if buffer is not None:
            buffer.end()
            self._relay_state(BufferState.IDLE)
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except Exception as exc:
                log.info("closing the stream: %s", exc)

    def is_active(self) -> bool:
        return self._stream is not None and bool(self._stream.active)

    def played_samples(self) -> int:
        buffer = self._buffer
        if buffer is None:
            return 0
        if not self.is_active():
            return buffer.played_total  # drained: all of it has been heard
        # What the callback took less what is still in the device's own queue.
        return max(0, buffer.played_total - self._latency)

    def pause(self) -> None:
        if self._buffer is not None:
            self._paused = True

    def resume(self) -> None:
        self._paused = False

    @property
    def paused(self) -> bool:
        return self._paused

    def buffer(self) -> SegmentBuffer | None:
        """The current stream's buffer (its gaps and first-sound time, for benchmarks)."""
        return self._buffer
