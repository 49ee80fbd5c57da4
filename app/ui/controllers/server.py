"""The window's speech server: the OpenAI-compatible API (app/server) on uvicorn in a thread of
its own, speaking with the model the window already loaded (one copy in memory).

Its requests go to the window's engine at background priority, so the window's own Play goes
first. While the model is not loaded (or is being reloaded on another device) the server
answers 503 and clients retry. What the user reads is made by the dialog from `ServerStatus`.
"""

from __future__ import annotations

import errno
import logging
import socket
import sys
import threading
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from app.ui.controllers.model import ModelState

log = logging.getLogger("chattts_studio.ui.server")

DEFAULT_PORT = 8000
LOOPBACK = "127.0.0.1"
EVERY_ADDRESS = "0.0.0.0"
POLL_MS = 50


class ServerPhase(Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    RUNNING = "running"
    STOPPING = "stopping"


class ServerProblem(Enum):
    PORT_BUSY = "port_busy"  # another program listens on the port
    NO_PERMISSION = "no_permission"  # the system refused the port
    NEEDS_KEY = "needs_key"  # other computers may call it only with a key
    FAILED = "failed"  # anything else; the log has the details


@dataclass(frozen=True)
class ServerStatus:
    phase: ServerPhase
    port: int = DEFAULT_PORT
    network: bool = False  # listening for other computers, not only this one
    has_key: bool = False
    model_ready: bool = False  # requests get 503 until the window's model is loaded
    makes_noise: bool = False  # a random-weight model: the server returns noise, not speech
    problem: ServerProblem | None = None


def lan_address() -> str:
    """This computer's address on its network, for other computers to use (no packet is sent:
    connecting a UDP socket only picks the route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()


def base_url(port: int, network: bool) -> str:
    return f"http://{lan_address() if network else LOOPBACK}:{port}/v1"


def curl_line(port: int, network: bool, key: str | None, windows: bool | None = None) -> str:
    """A command that fetches a spoken "Hello" as hello.mp3, quoted so it runs as pasted in a
    Unix shell, or on Windows in the Command Prompt (curl.exe, which Windows 10 and 11 have)."""
    windows = sys.platform == "win32" if windows is None else windows
    auth = f' -H "Authorization: Bearer {key}"' if key else ""
    body = '{\\"model\\":\\"tts-1\\",\\"voice\\":\\"alloy\\",\\"input\\":\\"Hello\\"}'
    return (
        f"{'curl.exe' if windows else 'curl'} {base_url(port, network)}/audio/speech{auth} "
        f'-H "Content-Type: application/json" -d "{body}" -o hello.mp3'
    )


def powershell_line(port: int, network: bool, key: str | None) -> str:
    """The same request for PowerShell, whose quoting a native curl line does not survive."""
    auth = f" -Headers @{{Authorization='Bearer {key}'}}" if key else ""
    return (
        f"Invoke-WebRequest -Method Post -Uri {base_url(port, network)}/audio/speech{auth} "
        '-ContentType application/json -Body \'{"model":"tts-1","voice":"alloy","input":"Hello"}\' '
        "-OutFile hello.mp3"
    )


def port_problem(host: str, port: int) -> ServerProblem | None:
    """Why the port cannot be listened on now, or None (checked first, so the user reads a
    reason rather than uvicorn's log)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        if sys.platform != "win32":
            # As uvicorn binds: a port its last run left in TIME_WAIT is free for it.
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM):
                return ServerProblem.NO_PERMISSION
            return ServerProblem.PORT_BUSY
    return None


class SpeechServerController(QObject):
    stateChanged = Signal(object)  # ServerStatus

    def __init__(self, model, parent=None):
        super().__init__(parent)
        self._model = model
        self._server = None
        self._thread: threading.Thread | None = None
        self._state = None  # app.server.app.ServerState while it runs
        self._status = ServerStatus(ServerPhase.STOPPED)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._check_thread)
        model.stateChanged.connect(self._on_model_state)

    @property
    def status(self) -> ServerStatus:
        return self._status

    @property
    def running(self) -> bool:
        return self._status.phase in (ServerPhase.STARTING, ServerPhase.RUNNING)

    def start(self, port: int, key: str | None = None, network: bool = False) -> None:
        if self.running or self._status.phase is ServerPhase.STOPPING:
            return
        key = (key or "").strip() or None
        base = ServerStatus(ServerPhase.STOPPED, port, network, key is not None)
        if network and key is None:
            return self._set(base, problem=ServerProblem.NEEDS_KEY)
        host = EVERY_ADDRESS if network else LOOPBACK
        problem = port_problem(host, port)
        if problem is not None:
            return self._set(base, problem=problem)
        try:
            self._launch(host, port, key)
        except Exception:
            log.exception("the speech server could not start")
            return self._set(base, problem=ServerProblem.FAILED)
        self._set(ServerStatus(ServerPhase.STARTING, port, network, key is not None))
        self._poll.start()

    def _launch(self, host: str, port: int, key: str | None) -> None:
        import uvicorn

        from app.server.app import ServerState, create_app

        self._state = ServerState(api_key=key)
        self._follow_model()
        # Stop cancels requests in progress after 2 s instead of waiting for them to end.
        config = uvicorn.Config(
            create_app(self._state),
            host=host,
            port=port,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name="speech-server", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask it to stop; requests in progress are cancelled with it. Returns at once."""
        if not self.running:
            return
        self._server.should_exit = True
        self._set(self._status, phase=ServerPhase.STOPPING)
        self._poll.start()

    def shutdown(self, timeout: float = 10.0) -> bool:
        """Stop and wait (the window is closing); False if the thread did not end in time."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            if self._thread.is_alive():
                return False
        self._poll.stop()
        return True

    @Slot()
    def _check_thread(self) -> None:
        alive = self._thread is not None and self._thread.is_alive()
        phase = self._status.phase
        if phase is ServerPhase.STARTING and self._server.started and alive:
            self._poll.stop()
            self._set(self._status, phase=ServerPhase.RUNNING)
        elif not alive:
            self._poll.stop()
            failed = phase is ServerPhase.STARTING and not self._server.started
            self._server = self._thread = self._state = None
            self._set(
                self._status,
                phase=ServerPhase.STOPPED,
                problem=ServerProblem.FAILED if failed else None,
                model_ready=False,
            )

    @Slot(object)
    def _on_model_state(self, _state) -> None:
        if self._state is not None:
            self._follow_model()
            self._set(self._status)

    def _follow_model(self) -> None:
        """The server speaks with the window's engine while the model is ready; else 503."""
        ready = self._model.state is ModelState.READY
        self._state.engine = self._model.engine() if ready else None

    def _set(self, status: ServerStatus, **changes) -> None:
        engine = self._state.engine if self._state is not None else None
        fields = dict(vars(status))
        fields.update(
            model_ready=engine is not None,
            makes_noise=engine is not None and not engine.synthesizer.model_kind.makes_speech,
            problem=None,
        )
        fields.update(changes)
        self._status = ServerStatus(**fields)
        self.stateChanged.emit(self._status)
