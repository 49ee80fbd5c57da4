"""Files we write get the mode a plain file gets under the user's umask; a replaced file keeps its own."""

import os
import stat

import numpy as np
import pytest

from app.atomic import write_json_atomic
from app.audio.wav import write_wav

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_new_files_follow_the_umask(tmp_path, umask_027):
    write_wav(tmp_path / "a.wav", np.zeros(10, dtype=np.float32))
    write_json_atomic(tmp_path / "a.json", {"x": 1})
    assert _mode(tmp_path / "a.wav") == 0o640
    assert _mode(tmp_path / "a.json") == 0o640


def test_a_replaced_file_keeps_its_mode(tmp_path, umask_027):
    for name, write in (
        ("b.wav", lambda p: write_wav(p, np.zeros(10, dtype=np.float32))),
        ("b.json", lambda p: write_json_atomic(p, [1])),
    ):
        target = tmp_path / name
        target.write_bytes(b"old")
        target.chmod(0o664)
        write(target)
        assert _mode(target) == 0o664 and target.read_bytes() != b"old"
