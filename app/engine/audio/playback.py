"""Streaming playback: audio chunks are queued as they are synthesized and played at once.

sounddevice needs the PortAudio library and an output device; either can be missing (no
PortAudio on a bare Linux, no sound card on a server, a headset unplugged). Then `problem`
holds the sentence to show once, playback calls do nothing, and export keeps working.
"""

from __future__ import annotations

import collections
import logging
import threading

import numpy as np

from app.i18n import N_, _

log = logging.getLogger("chattts_studio.playback")

NO_PORTAUDIO = N_("Sound playback is unavailable: the PortAudio library is missing ({detail}). "
                "Export WAV still works.")
NO_DEVICE = N_("No audio output device was found, so nothing can be played; Export WAV still works.")


class AudioOutput:
    """What the window needs from a sound output. Subclasses: real device, or a test fake."""

    problem: str | None = None

    def start(self, sample_rate: int) -> None:
        """Begin a new stream; anything still playing is dropped."""

    def enqueue(self, samples: np.ndarray) -> None:
        """Append audio to the stream; returns at once."""

    def end_stream(self) -> None:
        """No more audio will come: play what is queued, then stop."""

    def stop(self) -> None:
        """Silence now and drop anything queued."""

    def is_active(self) -> bool:
        return False


def list_output_devices() -> tuple[list[str], str | None]:
    """(names of output devices, the default's name); empty when PortAudio is missing."""
    try:
        import sounddevice as sd

        devices = sd.query_devices()
        names = [d["name"] for d in devices if d.get("max_output_channels", 0) > 0]
        default_index = sd.default.device[1]
        default = devices[default_index]["name"] if default_index is not None and default_index >= 0 else None
        return names, default
    except Exception as exc:  # OSError without PortAudio, PortAudioError without devices
        log.info("no output devices: %s", exc)
        return [], None


class SoundDeviceOutput(AudioOutput):
    def __init__(self, device: str | None = None):
        self.device = device or None
        self._sd = None
        self._stream = None
        self._queue: collections.deque[np.ndarray] = collections.deque()
        self._offset = 0
        self._ended = False
        self._lock = threading.Lock()
        self.problem = self._probe()

    def _probe(self) -> str | None:
        try:
            import sounddevice as sd
        except OSError as exc:
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
        filled = 0
        with self._lock:
            while filled < frames and self._queue:
                head = self._queue[0]
                take = min(frames - filled, len(head) - self._offset)
                outdata[filled:filled + take, 0] = head[self._offset:self._offset + take]
                filled += take
                self._offset += take
                if self._offset >= len(head):
                    self._queue.popleft()
                    self._offset = 0
            ended = self._ended and not self._queue
        outdata[filled:, 0] = 0.0  # an underrun waits for the next chunk in silence
        if ended:
            raise self._sd.CallbackStop

    def start(self, sample_rate: int) -> None:
        if self.problem:
            return
        self.stop()
        with self._lock:
            self._ended = False
        try:
            self._stream = self._sd.OutputStream(
                samplerate=sample_rate, channels=1, dtype="float32",
                device=self.device, callback=self._callback,
            )
            self._stream.start()
        except Exception as exc:
            self._stream = None
            self.problem = _("The sound device could not be opened ({error}); Export WAV still works.").format(
                error=exc)
            log.warning("output stream failed: %s", exc)

    def enqueue(self, samples: np.ndarray) -> None:
        if self._stream is None:
            return
        with self._lock:
            self._queue.append(np.asarray(samples, dtype=np.float32).reshape(-1))

    def end_stream(self) -> None:
        with self._lock:
            self._ended = True

    def stop(self) -> None:
        stream, self._stream = self._stream, None
        with self._lock:
            self._queue.clear()
            self._offset = 0
            self._ended = True
        if stream is not None:
            try:
                stream.abort()
                stream.close()
            except Exception as exc:
                log.info("closing the stream: %s", exc)

    def is_active(self) -> bool:
        return self._stream is not None and bool(self._stream.active)
