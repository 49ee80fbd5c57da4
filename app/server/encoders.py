"""Audio in the formats OpenAI's speech API offers, made piece by piece as the engine decodes.

pcm and wav are ours (wav streams with an open-ended length, as OpenAI's does). mp3, opus (in
Ogg) and aac (ADTS) stream through PyAV's encoders. flac is written whole at the end with
soundfile: a streamed FLAC header cannot carry the length, and libsndfile then refuses it.
"""

from __future__ import annotations

import io
import struct

import numpy as np

from app.audio import SAMPLE_RATE

FORMATS = ("mp3", "opus", "aac", "flac", "wav", "pcm")
MEDIA_TYPES = {
    "mp3": "audio/mpeg",
    "opus": "audio/ogg",
    "aac": "audio/aac",
    "flac": "audio/flac",
    "wav": "audio/wav",
    "pcm": "audio/pcm",
}
# PyAV container and codec per streamed compressed format.
_AV = {
    "mp3": ("mp3", "libmp3lame", {}),
    "aac": ("adts", "aac", {}),
    # Ogg pages are flushed every 20 ms of audio, not once a second, so bytes leave early.
    "opus": ("ogg", "libopus", {"page_duration": "20000"}),
}


def to_s16le(samples: np.ndarray) -> bytes:
    clipped = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)
    return (clipped * 32767.0).astype("<i2").tobytes()


class Encoder:
    """`feed(samples)` -> bytes ready now; `finish()` -> the rest."""

    def feed(self, samples: np.ndarray) -> bytes:
        raise NotImplementedError

    def finish(self) -> bytes:
        return b""


class PcmEncoder(Encoder):
    def feed(self, samples):
        return to_s16le(samples)


class WavEncoder(PcmEncoder):
    """A RIFF header with the largest sizes (the length is not known while streaming); readers
    take the data up to the end of the stream."""

    def __init__(self):
        self._header = False

    def feed(self, samples):
        data = super().feed(samples)
        if not self._header:
            self._header = True
            data = wav_header(0xFFFFFFFF) + data
        return data

    def finish(self):
        return b"" if self._header else wav_header(0)


def wav_header(data_bytes: int) -> bytes:
    riff = 0xFFFFFFFF if data_bytes == 0xFFFFFFFF else 36 + data_bytes
    return (
        b"RIFF"
        + struct.pack("<I", riff)
        + b"WAVEfmt "
        + struct.pack("<IHHIIHH", 16, 1, 1, SAMPLE_RATE, SAMPLE_RATE * 2, 2, 16)
        + b"data"
        + struct.pack("<I", data_bytes)
    )


class _Sink:
    """A write-only, non-seekable file for PyAV: the muxer never goes back over sent bytes."""

    def __init__(self):
        self._parts: list[bytes] = []

    def write(self, data) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data


class AvEncoder(Encoder):
    def __init__(self, fmt: str):
        import av

        container, codec, options = _AV[fmt]
        self._av = av
        self._sink = _Sink()
        self._out = av.open(self._sink, "w", format=container, options=options)
        self._stream = self._out.add_stream(codec, rate=SAMPLE_RATE)
        self._stream.layout = "mono"

    def _mux(self, frame) -> bytes:
        for packet in self._stream.encode(frame):
            self._out.mux(packet)
        return self._sink.take()

    def feed(self, samples):
        samples = np.ascontiguousarray(samples, dtype=np.float32)
        if samples.size == 0:
            return b""
        frame = self._av.AudioFrame.from_ndarray(samples[None, :], format="flt", layout="mono")
        frame.sample_rate = SAMPLE_RATE
        return self._mux(frame)

    def finish(self):
        data = self._mux(None)
        self._out.close()
        return data + self._sink.take()


class FlacEncoder(Encoder):
    def __init__(self):
        self._pieces: list[np.ndarray] = []

    def feed(self, samples):
        self._pieces.append(np.asarray(samples, dtype=np.float32))
        return b""

    def finish(self):
        import soundfile as sf

        audio = np.concatenate(self._pieces) if self._pieces else np.zeros(0, np.float32)
        out = io.BytesIO()
        sf.write(out, np.clip(audio, -1.0, 1.0), SAMPLE_RATE, format="FLAC", subtype="PCM_16")
        return out.getvalue()


def encoder_for(fmt: str) -> Encoder:
    if fmt == "pcm":
        return PcmEncoder()
    if fmt == "wav":
        return WavEncoder()
    if fmt == "flac":
        return FlacEncoder()
    return AvEncoder(fmt)
