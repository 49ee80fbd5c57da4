"""The frozen smoke test: the built executable's self-test, judged from its JSON report.

Runs only against a bundle: `CHATTTS_STUDIO_BUNDLE=dist/ChatTTSStudio pytest tests/frozen`
(installer/build-and-test.sh and CI do this after building). The default test run does not
collect this folder (see tests/conftest.py), so it never reports a skip in its place.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

BUNDLE = Path(os.environ.get("CHATTTS_STUDIO_BUNDLE", "dist/ChatTTSStudio"))
EXE = BUNDLE / ("chattts-studio.exe" if sys.platform == "win32" else "chattts-studio")


def test_built_executable_passes_its_self_test(tmp_path):
    report = tmp_path / "self-test.json"
    # Not the C locale, which would turn UTF-8 mode on by itself; PYTHONIOENCODING is ignored
    # by a frozen program (PyInstaller's isolated config), so it must not change the output.
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        CHATTTS_STUDIO_HOME=str(tmp_path / "home"),
        LC_ALL="C.UTF-8",
        PYTHONIOENCODING="cp1252",
    )
    proc = subprocess.run(
        [str(EXE), "self-test", "--json", str(report)], capture_output=True, timeout=900, env=env
    )
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 0, out + proc.stderr.decode("utf-8", "replace")
    assert out.startswith("[✓] torch")
    data = json.loads(report.read_text())
    assert data["ok"] is True
    assert data["frozen"] is True
    assert data["utf8_mode"] is True and data["stdout_encoding"] == "utf-8"  # build.spec's X utf8
    assert [s["name"] for s in data["steps"]] == [
        "torch",
        "resources",
        "text",
        "window",
        "synthesis",
    ]
    # The text libraries' data (wetext's FSTs, sentencex) came along: numbers read in both languages.
    text = next(s["detail"] for s in data["steps"] if s["name"] == "text")
    assert "四三九六" in text and "nine one one" in text
    assert all(s["ok"] for s in data["steps"])
    assert "24 kHz" in data["steps"][-1]["detail"]
    # TorchScript compiled inside the bundle, in the automatic precision (int8 on a CPU with its kernels)
    assert "jit-int8" in data["steps"][-1]["detail"] or "jit-fp32" in data["steps"][-1]["detail"]


def test_both_executables_share_one_folder():
    names = {p.name for p in BUNDLE.iterdir()}
    gui = "ChatTTSStudio.exe" if sys.platform == "win32" else "ChatTTSStudio"
    assert EXE.name in names and gui in names


def test_the_bundle_ships_the_commands_and_no_test_helper(tmp_path):
    """build.spec leaves out what only tests use (tests/support); every command is there."""
    assert not [
        p
        for p in BUNDLE.rglob("*")
        if p.name.startswith(("fake_hub", "screenshots.py", "conftest"))
    ]
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [str(EXE), "--help"], capture_output=True, text=True, timeout=300, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert all(
        f"    {name} " in proc.stdout
        for name in ("synth", "normalize", "models", "self-test", "doctor", "test-model")
    )


def test_console_build_reports_bad_input_with_a_sentence(tmp_path):
    """The console build answers a usage error with a message and a non-zero exit, not a crash."""
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [str(EXE), "synth", "   ", "-o", str(tmp_path / "x.wav")],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert proc.returncode == 2
    assert "There is no text to speak" in proc.stderr
