"""No library's own output reaches the user's terminal in a command; our sentences still do.

PyTorch's warning "torch.quantize_per_tensor ... deprecated" was the first line of every synth
and narrate run (C++ writes it straight to file descriptor 2 when a cached int8 step runs). The
int8 levels probe now meets it first and logs it; what C++ still writes goes to LIBRARY_LOG.
"""

import os
import subprocess
import sys
from pathlib import Path

from app.bootstrap import LOG_NAME
from app.third_party_output import LIBRARY_LOG, third_party_output_to_log

BOOK = "Chapter 1\n\nThe road was long. They walked until noon.\n"


def run(args, home, timeout=600):
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(home), PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def ours_only(stderr: str) -> list[str]:
    """The lines that are not one of our sentences ("Note: ...", "error: ...", progress)."""
    return [
        line
        for line in stderr.splitlines()
        if line.strip()
        and not line.startswith(
            (
                "Note: ",
                "error: ",
                "Rendering",
                "Exporting",
                "\r",
                "Speech server at",
                "curl ",
                "Model loaded on",
                "The speech server stopped",
            )
        )
    ]


def test_synth_and_narrate_print_only_our_sentences(tiny_model, tmp_path, isolated_user_dirs):
    home = isolated_user_dirs
    book = tmp_path / "book.txt"
    book.write_text(BOOK, encoding="utf-8")
    base = ["--model", str(tiny_model), "--no-refine"]
    runs = [
        run(
            [
                "synth",
                "Hello world.",
                "-o",
                str(tmp_path / f"{n}.wav"),
                "--max-tokens",
                "64",
                *base,
            ],
            home,
        )
        for n in ("first", "cached")
    ]  # the second loads the cached int8 step
    runs.append(run(["narrate", str(book), "-o", str(tmp_path / "book.wav"), *base], home))
    for proc in runs:
        assert proc.returncode == 0, proc.stderr
        assert "random-weight test model" in proc.stderr  # our own notes still come
        assert ours_only(proc.stderr) == [], proc.stderr
        assert "deprecated" not in proc.stderr and "[W" not in proc.stderr
    runs.append(serve_once(tiny_model, home))
    assert "Speech server at" in runs[-1].stderr
    assert ours_only(runs[-1].stderr) == [], runs[-1].stderr
    # The library's warning was made, and kept for whoever reads the logs: the int8 levels
    # probe (decode/int8_levels.py) meets it first and logs it in the program's log.
    assert "quantize_per_tensor" in (home / "log" / LOG_NAME).read_text(
        encoding="utf-8", errors="replace"
    )


def serve_once(tiny_model, home):
    """`serve` until it has spoken one request, then Ctrl+C; its exit and what it printed."""
    import signal

    import httpx

    from tests.server.conftest import free_port, health_of, wait_for

    port = free_port()
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(home), PYTHONIOENCODING="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "--model", str(tiny_model), "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"

    def health():
        return health_of(url)

    try:
        wait_for(lambda: health() == "ok" or proc.poll() is not None, "the model loaded", 300)
        reply = httpx.post(
            url + "/v1/audio/speech",
            timeout=300,
            json={"model": "tts-1", "voice": "alloy", "input": "Hi.", "response_format": "wav"},
        )
        assert reply.status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_with_verbose_the_library_output_is_shown(tiny_model, tmp_path, isolated_user_dirs):
    proc = run(["-v", "models", "status", "--model", str(tiny_model)], isolated_user_dirs)
    assert proc.returncode == 0
    assert not (isolated_user_dirs / "log" / LIBRARY_LOG).exists()


def test_fd_2_goes_to_the_log_and_comes_back(tmp_path, capfd):
    with third_party_output_to_log(tmp_path) as target:
        os.write(2, b"[W Quantizer.cpp:111] Warning: from C++\n")
        print("Note: ours", file=sys.stderr)
    os.write(2, b"after\n")
    err = capfd.readouterr().err
    assert "from C++" not in err and "Note: ours" in err and "after" in err
    assert Path(target).read_text() == "[W Quantizer.cpp:111] Warning: from C++\n"


def test_an_unwritable_log_folder_changes_nothing(tmp_path, capfd):
    (tmp_path / "file").write_text("x")
    with third_party_output_to_log(tmp_path / "file" / "logs") as target:
        os.write(2, b"still here\n")
    assert target is None and "still here" in capfd.readouterr().err


def _inside(code: str, home) -> subprocess.CompletedProcess:
    script = (
        "import sys\nfrom app.third_party_output import third_party_output_to_log\n"
        f"with third_party_output_to_log({str(home)!r}):\n    " + code + "\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONIOENCODING="utf-8"),
    )


def test_a_crash_still_reaches_the_terminal(tmp_path):
    """A segmentation fault or abort inside a command shows its traceback, not silence."""
    proc = _inside("import faulthandler; faulthandler._sigsegv()", tmp_path)
    assert proc.returncode != 0
    assert "Segmentation fault" in proc.stderr and "<string>" in proc.stderr, proc.stderr


def test_an_uncaught_exception_and_ctrl_c_reach_the_terminal(tmp_path):
    crash = _inside("raise RuntimeError('boom from a library')", tmp_path)
    assert "Traceback" in crash.stderr and "boom from a library" in crash.stderr
    stop = _inside("raise KeyboardInterrupt", tmp_path)
    assert "KeyboardInterrupt" in stop.stderr


def test_a_full_log_is_kept_as_the_previous_one(tmp_path, capfd):
    log = tmp_path / LIBRARY_LOG
    log.write_bytes(b"old\n" * 600_000)
    with third_party_output_to_log(tmp_path):
        os.write(2, b"new\n")
    assert log.read_bytes() == b"new\n"
    assert (tmp_path / (LIBRARY_LOG + ".1")).read_bytes().startswith(b"old\n")
    log.write_bytes(b"newer\n" * 400_000)
    with third_party_output_to_log(tmp_path):
        pass
    assert (
        (tmp_path / (LIBRARY_LOG + ".1")).read_bytes().startswith(b"newer\n")
    )  # one kept, not more
    assert sorted(p.name for p in tmp_path.iterdir()) == [LIBRARY_LOG, LIBRARY_LOG + ".1"]


def test_a_windows_console_keeps_the_console_writer(monkeypatch):
    """On a Windows console sys.stderr writes through the console API, as Python's own does."""
    import io

    from app import third_party_output

    made = []

    class FakeConsoleIO(io.RawIOBase):
        def __init__(self, fd, mode, closefd):
            made.append((fd, mode, closefd))

        def writable(self):
            return True

    monkeypatch.setattr(third_party_output.sys, "platform", "win32")
    monkeypatch.setattr(third_party_output.io, "_WindowsConsoleIO", FakeConsoleIO, raising=False)
    monkeypatch.setattr(third_party_output.os, "isatty", lambda fd: True)
    writer = third_party_output._terminal_writer(7, sys.__stderr__)
    assert isinstance(writer.buffer.raw, FakeConsoleIO) and made == [(7, "w", False)]
    monkeypatch.setattr(third_party_output.os, "isatty", lambda fd: False)  # a pipe: plain bytes
    assert isinstance(third_party_output._terminal_writer(7, sys.__stderr__).buffer.raw, io.FileIO)


def test_a_crash_points_at_what_the_libraries_printed(tmp_path):
    """An unexpected failure's traceback reaches the terminal with where the library's own
    words before it went; our own error (a StudioError) and a quiet log add nothing."""
    crash = _inside(
        "import os; os.write(2, b'CUDA error: an illegal memory access\\n'); "
        "raise RuntimeError('boom')",
        tmp_path,
    )
    assert "boom" in crash.stderr and "CUDA error" not in crash.stderr
    assert (
        f"Note: what the libraries printed before this failure is in {tmp_path / LIBRARY_LOG}."
        in crash.stderr
    )
    quiet = _inside("raise RuntimeError('boom')", tmp_path / "quiet")
    ours = _inside(
        "import os; os.write(2, b'x\\n'); from app.core.errors import StudioError; "
        "raise StudioError('ours')",
        tmp_path,
    )
    assert "Note: what the libraries" not in quiet.stderr + ours.stderr
