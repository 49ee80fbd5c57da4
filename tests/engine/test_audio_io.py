import errno

import numpy as np
import pytest
import soundfile as sf

from app.engine.audio import wav as audio_io
from app.engine.audio.wav import check_output_path, to_pcm16, write_wav
from app.engine.errors import OutputError


def test_wav_is_pcm16_mono_24k(tmp_path):
    samples = np.sin(np.linspace(0, 100, 24_000)).astype(np.float32) * 0.5
    out = write_wav(tmp_path / "a.wav", samples)
    info = sf.info(str(out))
    assert (info.samplerate, info.channels, info.subtype, info.format) == (24_000, 1, "PCM_16", "WAV")
    assert info.frames == 24_000
    back, _ = sf.read(str(out), dtype="float32")
    assert np.allclose(back, samples, atol=1 / 16000)
    assert [p.name for p in tmp_path.iterdir()] == ["a.wav"]


def test_out_of_range_samples_are_clipped_not_wrapped():
    pcm = to_pcm16(np.array([2.0, -3.0, np.nan, 0.5], dtype=np.float32))
    assert pcm.tolist() == [32767, -32767, 0, 16384]


def test_missing_folder_is_refused_before_work(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        check_output_path(tmp_path / "no" / "such" / "x.wav")


def test_folder_as_output_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_output_path(tmp_path)


def test_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    (tmp_path / "keep.wav").write_bytes(b"old result")

    def disk_full(path, *args, **kwargs):
        with open(path, "wb") as f:
            f.write(b"RIFF partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sf, "write", disk_full)
    with pytest.raises(OutputError, match="disk is full"):
        write_wav(tmp_path / "keep.wav", np.zeros(100, dtype=np.float32))
    # The earlier file is intact and no partial file is left.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.wav"]
    assert (tmp_path / "keep.wav").read_bytes() == b"old result"


def test_file_in_use_gets_a_sentence(tmp_path, monkeypatch):
    def in_use(src, dst):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(audio_io.os, "replace", in_use)
    with pytest.raises(OutputError, match="open in another program"):
        write_wav(tmp_path / "x.wav", np.zeros(10, dtype=np.float32))
    assert list(tmp_path.iterdir()) == []
