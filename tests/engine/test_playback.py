"""Sound output: degrade to a sentence without PortAudio or devices; the stream callback."""

import builtins
import types

import numpy as np
import pytest

from app.audio import playback
from app.audio.playback import NO_DEVICE, SoundDeviceOutput


def test_missing_portaudio_is_one_sentence_and_calls_do_nothing(monkeypatch):
    real_import = builtins.__import__

    def no_portaudio(name, *args, **kwargs):
        if name == "sounddevice":
            raise OSError("PortAudio library not found")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_portaudio)
    out = SoundDeviceOutput()
    assert out.problem.startswith("Sound playback is unavailable: the PortAudio library is missing")
    assert "Export WAV still works" in out.problem
    out.start(24_000)
    out.enqueue(np.zeros(10, dtype=np.float32))
    out.end_stream()
    out.stop()
    assert not out.is_active()


class FakeStream:
    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.active = False
        self.aborted = False

    def start(self):
        self.active = True

    def abort(self):
        self.aborted = True
        self.active = False

    def close(self):
        pass


@pytest.fixture
def fake_sd(monkeypatch):
    class CallbackStop(Exception):
        pass

    sd = types.SimpleNamespace(OutputStream=FakeStream, CallbackStop=CallbackStop)
    monkeypatch.setattr(SoundDeviceOutput, "_probe", lambda self: setattr(self, "_sd", sd))
    return sd


def test_no_output_device_is_reported(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "sounddevice", types.SimpleNamespace())
    monkeypatch.setattr(playback, "list_output_devices", lambda: ([], None))
    out = SoundDeviceOutput()
    assert out.problem == NO_DEVICE
    out.start(24_000)
    assert out._stream is None


def test_callback_plays_chunks_in_order_then_stops(fake_sd):
    out = SoundDeviceOutput()
    out.start(24_000)
    stream = out._stream
    assert stream.kwargs["samplerate"] == 24_000 and stream.kwargs["channels"] == 1
    out.enqueue(np.array([1, 2, 3], dtype=np.float32), 0, False)
    buf = np.full((4, 1), -9, dtype=np.float32)
    out._callback(buf, 4, None, None)  # a sentence not yet whole, speed unknown: waits
    assert buf[:, 0].tolist() == [0, 0, 0, 0]
    out.enqueue(np.array([4, 5], dtype=np.float32), 0, True)
    out.enqueue(np.array([6], dtype=np.float32), 1, False)
    buf = np.full((4, 1), -9, dtype=np.float32)
    out._callback(buf, 4, None, None)  # the whole sentence is there: it plays
    assert buf[:, 0].tolist() == [1, 2, 3, 4]
    buf = np.full((4, 1), -9, dtype=np.float32)
    out._callback(buf, 4, None, None)  # ends the sentence, then waits at its boundary
    assert buf[:, 0].tolist() == [5, 0, 0, 0]
    out.end_stream()
    buf = np.full((4, 1), -9, dtype=np.float32)
    with pytest.raises(fake_sd.CallbackStop):  # the last block still plays (PortAudio drains it)
        out._callback(buf, 4, None, None)
    assert buf[:, 0].tolist() == [6, 0, 0, 0]


def test_stop_silences_at_once_and_drops_the_queue(fake_sd):
    out = SoundDeviceOutput()
    out.start(24_000)
    stream = out._stream
    out.enqueue(np.ones(1000, dtype=np.float32))
    out.stop()
    assert stream.aborted
    assert not out.is_active()
    buf = np.full((4, 1), -9, dtype=np.float32)
    with pytest.raises(fake_sd.CallbackStop):
        out._callback(buf, 4, None, None)
    assert buf[:, 0].tolist() == [0, 0, 0, 0]


def test_the_played_position_counts_what_the_card_took_and_holds_in_a_pause(fake_sd):
    out = SoundDeviceOutput()
    out.start(24_000)
    assert out.played_samples() == 0
    out.enqueue(np.ones(10, dtype=np.float32), 0, True)
    out.end_stream()
    buf = np.zeros((4, 1), dtype=np.float32)
    out._callback(buf, 4, None, None)
    assert out.played_samples() == 4
    out.pause()
    buf = np.full((4, 1), -9, dtype=np.float32)
    out._callback(buf, 4, None, None)  # paused: silence, the queue kept
    assert out.paused and buf[:, 0].tolist() == [0, 0, 0, 0] and out.played_samples() == 4
    out.resume()
    out._callback(buf, 4, None, None)
    assert not out.paused and out.played_samples() == 8
    out.stop()
    assert out.played_samples() == 0 and not out.paused


def test_the_played_position_is_behind_the_callback_by_the_stream_s_latency(fake_sd):
    FakeStream.latency = 0.5  # seconds: 2 samples at 4 Hz
    try:
        out = SoundDeviceOutput()
        out.start(4)
        out.enqueue(np.ones(6, dtype=np.float32), 0, True)
        out._callback(np.zeros((4, 1), dtype=np.float32), 4, None, None)
        assert out.played_samples() == 2  # 4 taken, 2 of them still in the card
        out._stream.active = False  # drained
        assert out.played_samples() == 4
    finally:
        del FakeStream.latency
