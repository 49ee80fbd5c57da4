"""Model > Speech server: the window serves OpenAI's speech API with the model it already loaded,
answers 503 until that model is ready, refuses other computers without a key, says when a port
is taken, hands out a curl line that works as written, and stops with the window."""

from __future__ import annotations

import io
import json
import shlex
import socket
import sys

import httpx
import pytest
import soundfile as sf
from PySide6.QtCore import Qt

from app.ui.controllers.server import ServerPhase, ServerProblem, curl_line, powershell_line
from tests.server.conftest import free_port

START_MS = 30_000


def _open_dialog(window, port, key=""):
    window.open_speech_server()
    dialog = window.server_dialog
    dialog.port.setValue(port)
    dialog.key.setText(key)
    return dialog


def _start(qtbot, window, dialog):
    qtbot.mouseClick(dialog.toggle, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: window.speech_server.status.phase is not ServerPhase.STARTING, timeout=START_MS
    )
    assert window.speech_server.status.phase is ServerPhase.RUNNING, window.speech_server.status


def test_the_window_serves_speech_with_its_own_loaded_model(qtbot, window):
    port = free_port()
    dialog = _open_dialog(window, port, key="s3cret")
    _start(qtbot, window, dialog)
    server = window.speech_server
    assert server._state.engine is window.model.engine()  # one model in memory, not a second
    window.menus.refresh()
    assert window.menus.actions["model.server"].isChecked()
    assert "random weights" in dialog.state.text()  # the tiny model: noise, said so
    url = f"http://127.0.0.1:{port}/v1"
    assert dialog.address.text() == url
    assert httpx.get(url + "/models").status_code == 401  # the key is asked for
    reply = httpx.post(
        url + "/audio/speech",
        headers={"Authorization": "Bearer s3cret"},
        timeout=300,
        json={"model": "tts-1", "voice": "alloy", "input": "Hi.", "response_format": "wav"},
    )
    assert reply.status_code == 200
    audio, rate = sf.read(io.BytesIO(reply.content))
    assert rate == 24_000 and len(audio) > 0
    qtbot.mouseClick(dialog.toggle, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: server.status.phase is ServerPhase.STOPPED, timeout=START_MS)
    assert server.status.problem is None
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)


def test_before_the_model_is_loaded_it_answers_503_then_serves_once_loaded(qtbot, make_window):
    window = make_window(start=False)
    port = free_port()
    _start(qtbot, window, _open_dialog(window, port))
    assert httpx.get(f"http://127.0.0.1:{port}/health").status_code == 503
    assert "not ready" in window.server_dialog.state.text()
    window.start()
    qtbot.waitUntil(lambda: window.speech_server.status.model_ready, timeout=120_000)
    health = httpx.get(f"http://127.0.0.1:{port}/health").json()
    assert health["status"] == "ok" and health["test_model"] is True


def test_other_computers_are_refused_without_a_key(qtbot, window):
    dialog = _open_dialog(window, free_port())
    dialog.network.setChecked(True)
    qtbot.mouseClick(dialog.toggle, Qt.MouseButton.LeftButton)
    status = window.speech_server.status
    assert status.phase is ServerPhase.STOPPED and status.problem is ServerProblem.NEEDS_KEY
    assert "key" in dialog.state.text()
    qtbot.mouseClick(dialog.new_key, Qt.MouseButton.LeftButton)
    assert len(dialog.key_text()) >= 24  # a generated key, not a fixed one


def test_a_port_in_use_is_named_in_a_sentence(qtbot, window):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        dialog = _open_dialog(window, port)
        qtbot.mouseClick(dialog.toggle, Qt.MouseButton.LeftButton)
        assert window.speech_server.status.problem is ServerProblem.PORT_BUSY
        assert str(port) in dialog.state.text() and "another port" in dialog.state.text()


def test_the_curl_line_is_a_request_the_server_answers(qtbot, window):
    port = free_port()
    dialog = _open_dialog(window, port, key="k")
    _start(qtbot, window, dialog)
    words = shlex.split(dialog.curl.text())  # as a shell would hand it to curl
    assert words[0] == ("curl.exe" if sys.platform == "win32" else "curl")
    headers = dict(words[i + 1].split(": ", 1) for i, w in enumerate(words) if w == "-H")
    body = json.loads(words[words.index("-d") + 1])
    target = words[1]
    reply = httpx.post(target, headers=headers, content=json.dumps(body), timeout=300)
    assert reply.status_code == 200 and reply.headers["content-type"] == "audio/mpeg"
    assert words[words.index("-o") + 1] == "hello.mp3"


def test_on_windows_the_line_names_curl_exe_not_powershells_alias():
    line = curl_line(8123, False, None, windows=True)
    assert (
        line.startswith("curl.exe http://127.0.0.1:8123/v1/audio/speech ")
        and "Authorization" not in line
    )


def test_the_powershell_line_sends_the_same_json_and_key():
    line = powershell_line(8123, False, "k3y")
    assert line.startswith(
        "Invoke-WebRequest -Method Post -Uri http://127.0.0.1:8123/v1/audio/speech "
    )
    assert "@{Authorization='Bearer k3y'}" in line
    body = line.split("-Body '", 1)[1].split("'", 1)[0]  # PowerShell keeps '...' verbatim
    assert json.loads(body) == {"model": "tts-1", "voice": "alloy", "input": "Hello"}
    assert line.endswith("-OutFile hello.mp3")


def test_after_stop_the_same_port_starts_again(qtbot, window):
    port = free_port()
    dialog = _open_dialog(window, port)
    _start(qtbot, window, dialog)
    assert (
        httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200
    )  # a connection, then stop
    qtbot.mouseClick(dialog.toggle, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: window.speech_server.status.phase is ServerPhase.STOPPED, timeout=START_MS
    )
    _start(qtbot, window, dialog)  # not "in use by another program"


def test_closing_the_window_stops_the_server(qtbot, make_window):
    window = make_window()
    port = free_port()
    _start(qtbot, window, _open_dialog(window, port))
    thread = window.speech_server._thread
    window.close()
    assert not thread.is_alive()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)
