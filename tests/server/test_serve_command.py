"""`chattts-studio serve`: loopback by default, no other address without a key (one error line,
exit 2), and the command end to end: it answers while loading, then speaks, then stops on Ctrl+C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.cli.serve import check_exposure, is_loopback
from app.core.errors import StudioError
from tests.server.conftest import free_port, health_of, wait_for

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "example.org"])
def test_a_non_loopback_host_without_a_key_is_refused_in_one_line(host, capsys, monkeypatch):
    monkeypatch.delenv("CHATTTS_STUDIO_API_KEY", raising=False)
    assert main(["serve", "--host", host]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "--api-key" in err[0]


@pytest.mark.parametrize("host", ["127.0.0.1", "127.8.0.1", "::1", "[::1]", "localhost"])
def test_loopback_hosts_need_no_key(host):
    assert is_loopback(host)
    check_exposure(host, None)


def test_another_address_with_a_key_is_allowed():
    check_exposure("0.0.0.0", "k")
    with pytest.raises(StudioError):
        check_exposure("0.0.0.0", "")


def test_serve_answers_while_loading_then_speaks_and_stops_on_ctrl_c(tiny_model, tmp_path):
    from openai import OpenAI

    port = free_port()
    env = dict(os.environ, CHATTTS_STUDIO_API_KEY="k3y", CHATTTS_STUDIO_HOME=str(tmp_path / "home"))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--model",
            str(tiny_model),
            "--port",
            str(port),
            "--device",
            "cpu",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"

    def health():
        return health_of(url)

    try:
        wait_for(lambda: health() is not None or proc.poll() is not None, "the server listens", 120)
        wait_for(lambda: health() == "ok" or proc.poll() is not None, "the model loaded", 300)
        assert proc.poll() is None
        client = OpenAI(base_url=url + "/v1", api_key="k3y", max_retries=0, timeout=300)
        reply = client.audio.speech.create(
            model="tts-1", voice="alloy", input="Hi.", response_format="wav"
        )
        assert reply.content[:4] == b"RIFF" and len(reply.content) > 44
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/v1" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["0", "65", "two"])
def test_max_batch_out_of_range_is_one_error_line(value, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--max-batch", value])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: ") and "--max-batch" in err[-1]


def test_max_batch_reaches_the_engine_the_server_builds(tiny_model):
    from app.cli.parser import build_parser
    from app.cli.serve import _load
    from app.server.app import ServerState

    args = build_parser().parse_args(
        ["serve", "--model", str(tiny_model), "--device", "cpu", "--max-batch", "2"]
    )
    state = ServerState()
    _load(state, tiny_model, args)
    try:
        assert state.load_error is None and state.engine.scheduler.max_batch == 2
    finally:
        state.engine.close(30)
