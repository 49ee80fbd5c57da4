"""A speech server on 127.0.0.1 (a free port, uvicorn in a thread) over the session's tiny model."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from app.server.app import ServerState, create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def health_of(url: str):
    """The server's /health status, or None while nothing answers there."""
    import httpx

    try:
        return httpx.get(url + "/health").json()["status"]
    except httpx.TransportError:
        return None


class RunningServer:
    def __init__(self, state: ServerState, cors=None):
        import uvicorn

        self.state = state
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(state, cors=cors),
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="off",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:  # readiness, not a timing assertion
            if not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)

    def client(self, key: str = "no-key", **kwargs):
        from openai import OpenAI

        return OpenAI(base_url=self.url + "/v1", api_key=key, max_retries=0, **kwargs)


@pytest.fixture(scope="module")
def engine(synthesizer):
    from app.synthesis.engine import Engine

    eng = Engine(synthesizer)
    yield eng
    eng.close(30)


@pytest.fixture
def serve(tmp_path):
    """serve(engine=..., **state fields) -> a RunningServer, stopped after the test;
    `wrap_submit(engine, request, priority)` stands in for the engine's submit (SubmitWrapped)."""
    from app.library.voices import VoiceLibrary

    running = []

    def start(engine=None, cors=None, wrap_submit=None, **fields):
        fields.setdefault("voices", VoiceLibrary(tmp_path / "library"))
        if wrap_submit is not None:
            engine = SubmitWrapped(engine, wrap_submit)
        server = RunningServer(ServerState(engine=engine, **fields), cors=cors)
        running.append(server)
        return server

    yield start
    for server in running:
        server.stop()


FAST = dict(refine_text=False)


def fast_sampling():
    """Short sentences from the random model (it never chooses to stop by itself)."""
    from app.core.request import SamplingParams

    return SamplingParams(max_new_tokens=24)


class SubmitWrapped:
    """The engine as the server sees it, with `submit` going through `wrap_submit(engine,
    request, priority)`: a test holds or breaks jobs from outside the server."""

    def __init__(self, engine, wrap_submit):
        self._engine, self._wrap_submit = engine, wrap_submit

    def submit(self, request, priority):
        return self._wrap_submit(self._engine, request, priority)

    def __getattr__(self, name):
        return getattr(self._engine, name)


class GatedJob:
    """A job whose SynthesisResult waits for `gate`: while it is closed the request is
    unfinished on the server, whatever the machine's speed."""

    def __init__(self, job, gate: threading.Event):
        self.job, self.gate = job, gate

    @property
    def id(self):
        return self.job.id

    def cancel(self):
        self.job.cancel()

    def __iter__(self):
        from app.core.request import SynthesisResult

        for item in self.job:
            if isinstance(item, SynthesisResult):
                self.gate.wait(60)
            yield item


class Gate:
    """A wrap_submit (SubmitWrapped) that keeps each job and holds its end until `open()`."""

    def __init__(self):
        self.event = threading.Event()
        self.jobs = []

    def __call__(self, engine, request, priority):
        job = engine.submit(request, priority)
        self.jobs.append(job)
        return GatedJob(job, self.event)

    def open(self):
        self.event.set()


def wait_for(condition, what: str, limit: float = 60.0):
    """Wait until `condition()` (a readiness wait with a generous limit, not a timing claim)."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)
