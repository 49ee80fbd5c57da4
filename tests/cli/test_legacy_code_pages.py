"""A Windows pipe or `> report.txt` is cp1252 (cp936 on Chinese Windows): no ✓, often no 张.
The CLI must print a stand-in there, never raise UnicodeEncodeError (issue 18)."""

import codecs
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.bootstrap import make_encodable

SNAPSHOT = Path(__file__).parents[1] / "doctor" / "snapshots" / "win_chinese_user_cp936.json"
# What each code page shows for [✓], [✗] and the Chinese user name in the snapshot's paths.
EXPECTED = {
    "cp1252": ("[v]", "[×]", "C:\\Users\\??\\"),
    "cp936": ("[√]", "[×]", "C:\\Users\\张伟\\"),
}


def _env(tmp_path, codec):
    return dict(
        os.environ,
        PYTHONIOENCODING=codec,
        QT_QPA_PLATFORM="offscreen",
        CHATTTS_STUDIO_HOME=str(tmp_path / "home"),
        HF_HUB_OFFLINE="1",
    )


@pytest.mark.parametrize("codec", ["cp1252", "cp936"])
def test_a_legacy_stream_prints_look_alikes_instead_of_raising(codec):
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=codec)
    with pytest.raises(UnicodeEncodeError):
        stream.write("[✓]")
        stream.flush()
    raw.seek(0)
    raw.truncate()
    make_encodable(stream)
    stream.write("[✓] [✗] ⚠ 张伟 →\n")
    stream.flush()
    ok, fail, _ = EXPECTED[codec]
    arrow = "->" if codec == "cp1252" else "→"
    names = "??" if codec == "cp1252" else "张伟"
    assert raw.getvalue().decode(codec) == f"{ok} {fail} ! {names} {arrow}\n"


def test_a_utf8_stream_is_left_alone():
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    make_encodable(stream)
    assert stream.errors == "strict"


@pytest.mark.parametrize("codec", ["cp1252", "cp936"])
def test_doctor_report_redirected_to_a_legacy_code_page_file(tmp_path, codec):
    """`chattts-studio doctor > report.txt` on an English or a Chinese Windows."""
    report = tmp_path / "report.txt"
    with report.open("wb") as out:
        proc = subprocess.run(
            [sys.executable, "-m", "app", "doctor", "--snapshot", str(SNAPSHOT)],
            stdout=out,
            stderr=subprocess.PIPE,
            env=_env(tmp_path, codec),
            timeout=300,
        )
    assert proc.returncode == 0, proc.stderr.decode(codec, "replace")
    assert b"Traceback" not in proc.stderr
    text = report.read_bytes().decode(codec)  # strict: every byte is valid in the codec
    ok, _fail, user_dir = EXPECTED[codec]
    assert f"{ok} Python" in text
    assert "[!] Non-ASCII folder names" in text and user_dir in text


@pytest.mark.slow
@pytest.mark.parametrize("codec", ["cp1252", "cp936"])
def test_self_test_through_a_legacy_code_page_pipe(tmp_path, codec):
    """What the Windows workflow runs: `self-test --json` with stdout piped."""
    report = tmp_path / "self-test.json"
    proc = subprocess.run(
        [sys.executable, "-m", "app", "self-test", "--json", str(report)],
        capture_output=True,
        env=_env(tmp_path, codec),
        timeout=600,
    )
    out = proc.stdout.decode(codec)
    assert proc.returncode == 0, out + proc.stderr.decode(codec, "replace")
    ok, _fail, _ = EXPECTED[codec]
    assert [line[:3] for line in out.splitlines()[:4]] == [ok] * 4
    assert out.splitlines()[-1] == "Self-test passed."
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["ok"] is True and codecs.lookup(data["stdout_encoding"]) == codecs.lookup(codec)
