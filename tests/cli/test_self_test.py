"""`chattts-studio self-test`: its steps, its report, and its failure sentence."""

import json

from app.cli import main
from app.selftest import steps as selftest


def test_each_step_passes_here(tmp_path):
    assert "torch" in selftest.step_torch()
    assert "ChatTTS data" in selftest.step_resources()
    assert (
        "比分三比二。" in selftest.step_text()
        and "four dollars and fifty cents" in selftest.step_text()
    )
    assert "main window built" in selftest.step_window()
    detail = selftest.step_synthesis(tmp_path)
    assert "24 kHz" in detail and "noise, not speech" in detail
    assert (tmp_path / "self-test.wav").stat().st_size > 44


def test_the_text_step_fails_when_numbers_are_not_read(monkeypatch):
    # A bundle without wetext's FSTs or sentencex fails here, not on the user's first sentence.
    import pytest

    monkeypatch.setattr("app.text.normalize.normalize", lambda text, lang=None, glue=" ": text)
    with pytest.raises(ValueError, match="was read as"):
        selftest.step_text()


def test_the_synthesis_step_fails_when_the_second_start_is_not_cached(tmp_path, monkeypatch):
    """The self-test is what proves a built bundle: it starts the model twice, and the second
    start must take its compiled step from the cache and sound the same."""
    import pytest

    def nothing_cached(*args, **kwargs):
        return None

    monkeypatch.setattr("app.decode.compiled_cache.read_step_in_background", nothing_cached)
    with pytest.raises(
        ValueError,
        match=r"the second start \(no cached step\) did not give the first start's audio",
    ):
        selftest.step_synthesis(tmp_path)


def test_a_failing_step_stops_the_run_and_is_named(tmp_path):
    calls = []

    def broken():
        raise FileNotFoundError("the Chinese translation is missing")

    ok, steps = selftest.run_self_test(
        [
            ("first", lambda: calls.append(1) or "fine"),
            ("resources", broken),
            ("never", lambda: calls.append(2) or ""),
        ]
    )
    assert not ok
    assert [s.name for s in steps] == ["first", "resources"]
    assert calls == [1]
    assert steps[1].detail == "FileNotFoundError: the Chinese translation is missing"


def test_cli_writes_json_and_exits_1_with_a_sentence(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(
        selftest, "step_resources", lambda: (_ for _ in ()).throw(OSError("disk gone"))
    )
    monkeypatch.setattr(selftest, "step_window", lambda: "window")
    monkeypatch.setattr(selftest, "step_synthesis", lambda work: "audio")
    report = tmp_path / "r.json"
    code = main(["self-test", "--json", str(report)])
    err = capsys.readouterr().err
    assert code == 1
    assert "Self-test failed at 'resources': OSError: disk gone" in err
    data = json.loads(report.read_text())
    assert data["ok"] is False and data["steps"][-1]["name"] == "resources"


def test_cli_passes_end_to_end(tmp_path, capsys):
    report = tmp_path / "r.json"
    assert main(["self-test", "--json", str(report)]) == 0
    data = json.loads(report.read_text())
    assert data["ok"] and [s["name"] for s in data["steps"]] == [
        "torch",
        "resources",
        "text",
        "window",
        "synthesis",
    ]


def test_the_run_leaves_nothing_behind(monkeypatch):
    """Its model, caches and WAV live in a temporary folder that goes with the run, failed or
    not, and the user's own home is the process's again afterwards."""
    from pathlib import Path

    monkeypatch.setenv("CHATTTS_STUDIO_HOME", "/the/users/home")
    seen = []

    def writes():
        home = Path(__import__("os").environ["CHATTTS_STUDIO_HOME"])
        home.mkdir(parents=True)
        (home / "model.bin").write_bytes(b"\0" * 1024)
        seen.append(home.parent)
        return "wrote"

    def fails():
        raise RuntimeError("broken")

    for steps in ([("writes", writes)], [("writes", writes), ("fails", fails)]):
        selftest.run_self_test(steps)
        assert seen[-1].name.startswith("chattts-self-test-") and not seen[-1].exists()
        assert __import__("os").environ["CHATTTS_STUDIO_HOME"] == "/the/users/home"


def test_the_synthesis_step_fails_when_the_second_start_needs_chattts_to_encode(
    tmp_path, monkeypatch
):
    """Its two sentences are voice-locked: the second start must encode the first one's
    recording with the encoder built without ChatTTS (model/runtime/encoder.py)."""
    import pytest

    def unavailable(*args, **kwargs):
        raise ModuleNotFoundError("torchaudio missing from the bundle")

    monkeypatch.setattr("app.model.runtime.parts.load_audio_encoder", unavailable)
    with pytest.raises(ValueError, match="the second start loaded ChatTTS to encode a recording"):
        selftest.step_synthesis(tmp_path)


def test_the_window_step_stops_the_window_s_threads_itself(monkeypatch):
    """Where the window is not really created (Wine, a broken platform plugin), close() sends
    no closeEvent: threads left running then abort the frozen program at exit (issue 37)."""
    from app.ui.main_window import MainWindow
    from app.workers.threads import running_threads

    monkeypatch.setattr(MainWindow, "close", lambda self: True)  # no closeEvent comes
    assert "main window built" in selftest.step_window()
    assert running_threads() == []


def test_the_report_is_flushed_before_the_exit(monkeypatch):
    import io
    import sys

    monkeypatch.setattr(
        selftest, "run_self_test", lambda: (True, [selftest.Step("torch", True, 0.1, "2.14.1")])
    )
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="utf-8"))  # 8 KB buffer
    assert selftest.main() == 0
    assert b"Self-test passed." in raw.getvalue()  # on the stream, not in its buffer


def test_self_test_leaves_no_window_behind(isolated_user_dirs):
    """A window only closed stays alive in a process that goes on (the test run, a host program);
    a language change then reached it after the self-test's home was removed, and its history
    panel read a library that was gone."""
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow

    assert "main window built" in selftest.step_window()
    assert [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)] == []
