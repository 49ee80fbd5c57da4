import errno

import numpy as np
import pytest
import soundfile as sf

from app.audio import wav as audio_io
from app.audio.wav import check_output_path, to_pcm16, write_wav
from app.core.errors import OutputError


def test_wav_is_pcm16_mono_24k(tmp_path):
    samples = np.sin(np.linspace(0, 100, 24_000)).astype(np.float32) * 0.5
    out = write_wav(tmp_path / "a.wav", samples)
    info = sf.info(str(out))
    assert (info.samplerate, info.channels, info.subtype, info.format) == (
        24_000,
        1,
        "PCM_16",
        "WAV",
    )
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


def test_a_link_to_a_file_is_written_through_and_stays_a_link(tmp_path):
    """The result used to be renamed over the link's own name, replacing the link with a file."""
    real = tmp_path / "takes" / "real.wav"
    real.parent.mkdir()
    real.write_bytes(b"old take")
    link = tmp_path / "link.wav"
    link.symlink_to(real)
    assert write_wav(link, np.zeros(240, dtype=np.float32)) == link
    assert link.is_symlink() and link.resolve() == real
    assert sf.info(str(real)).frames == 240
    assert sorted(p.name for p in real.parent.iterdir()) == ["real.wav"]  # no temporary file left


def test_a_dangling_link_creates_its_target(tmp_path):
    link = tmp_path / "link.wav"
    link.symlink_to(tmp_path / "made.wav")
    write_wav(link, np.zeros(240, dtype=np.float32))
    assert link.is_symlink() and sf.info(str(tmp_path / "made.wav")).frames == 240


def test_a_link_whose_folder_is_gone_or_that_loops_is_refused_in_a_sentence(tmp_path):
    gone = tmp_path / "gone.wav"
    gone.symlink_to(tmp_path / "no such folder" / "x.wav")
    with pytest.raises(OutputError, match="is a symbolic link to .* whose folder does not exist"):
        check_output_path(gone)
    a, b = tmp_path / "a.wav", tmp_path / "b.wav"
    a.symlink_to(b)
    b.symlink_to(a)
    with pytest.raises(OutputError, match="leads around in a circle"):
        write_wav(a, np.zeros(10, dtype=np.float32))
    assert a.is_symlink() and b.is_symlink()


def test_the_program_s_own_files_never_follow_a_planted_link(tmp_path):
    outside = tmp_path / "precious.wav"
    outside.write_bytes(b"not ours")
    planted = tmp_path / "audio" / "7.wav"
    planted.parent.mkdir()
    planted.symlink_to(outside)
    write_wav(planted, np.zeros(24, dtype=np.float32), follow_links=False)
    assert outside.read_bytes() == b"not ours" and not planted.is_symlink()
