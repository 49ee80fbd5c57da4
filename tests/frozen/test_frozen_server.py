"""The bundle's speech server: uvicorn, FastAPI and PyAV (mp3, Opus) work frozen, not only in
the source tree. A tiny test model made by the bundle itself, served on 127.0.0.1."""

import io
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import av
import httpx

BUNDLE = Path(os.environ.get("CHATTTS_STUDIO_BUNDLE", "dist/ChatTTSStudio"))
EXE = BUNDLE / ("chattts-studio.exe" if sys.platform == "win32" else "chattts-studio")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(url):
    try:
        return httpx.get(url + "/health", timeout=5).json()["status"]
    except (httpx.TransportError, ValueError):
        return None


def test_the_bundle_serves_speech_in_mp3_and_opus(tmp_path):
    env = dict(os.environ, CHATTTS_STUDIO_HOME=str(tmp_path / "home"))
    model = tmp_path / "model"
    made = subprocess.run(
        [str(EXE), "test-model", str(model)], capture_output=True, text=True, timeout=600, env=env
    )
    assert made.returncode == 0, made.stderr
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [str(EXE), "serve", "--model", str(model), "--port", str(port), "--device", "cpu"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 600  # a readiness limit, not a timing assertion
        while _health(url) != "ok" and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _health(url) == "ok", proc.poll()
        for fmt, codec in (("mp3", "mp3"), ("opus", "opus")):
            reply = httpx.post(
                url + "/v1/audio/speech",
                timeout=600,
                json={"model": "tts-1", "voice": "alloy", "input": "Hi.", "response_format": fmt},
            )
            assert reply.status_code == 200, reply.text
            with av.open(io.BytesIO(reply.content)) as container:
                stream = container.streams.audio[0]
                assert codec in stream.codec_context.name  # FFmpeg's decoder: "mp3float", "opus"
                assert sum(frame.samples for frame in container.decode(stream)) > 0
    finally:
        # Ctrl+C on Windows would reach every process of the console, pytest too: end it there.
        proc.terminate() if sys.platform == "win32" else proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    assert "Traceback" not in err
    if sys.platform != "win32":
        assert proc.returncode == 0, err  # Ctrl+C is serve's normal end
