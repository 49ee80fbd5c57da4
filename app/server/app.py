"""The FastAPI app: POST /v1/audio/speech, GET /v1/models, /v1/voices, /health.

It is a client of the engine like the window's Play: each request becomes a background job,
so concurrent requests share decode batches and the window's own Play goes first. The app
starts without a model (503 until `state.engine` is set), so the address answers at once.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from dataclasses import dataclass, field, replace

import anyio
from fastapi import FastAPI, Header
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from app import __version__
from app.core import (
    AudioChunk,
    InputTextError,
    ParameterError,
    SamplingParams,
    StudioError,
    SynthesisCancelled,
    SynthesisRequest,
    VoiceError,
)
from app.i18n import _, again
from app.server import DEFAULT_MAX_QUEUE
from app.server.encoders import MEDIA_TYPES, encoder_for
from app.server.errors import ApiError, BodyLimit, install_handlers
from app.server.guards import ApiKeyCheck
from app.server.language import ClientLanguage
from app.server.speech_request import MAX_BODY_BYTES, MODELS, SpeechRequest, chattts_speed
from app.server.take_check import (
    FINDINGS_HEADER,
    HEADER,
    CheckedJob,
    Retaker,
    findings_header,
    wants_retry,
)
from app.server.voices import UnknownVoice, resolve_voice, voice_names
from app.synthesis import Priority
from app.text import check_speakable, check_text

log = logging.getLogger("chattts_studio.server")
RETRY_AFTER_S = 2
# Errors that are the request's fault: 400. Others (out of memory, a broken model) are 500 with
# their sentence.
_BAD_REQUEST = (InputTextError, ParameterError, VoiceError)


@dataclass
class ServerState:
    engine: object | None = None  # an Engine over a loaded Synthesizer; None: loading
    api_key: str | None = None
    max_queue: int = DEFAULT_MAX_QUEUE
    voices: object | None = None  # a VoiceLibrary (default: the user's)
    load_error: str | None = None  # why the model could not be loaded
    priority: Priority = Priority.BACKGROUND
    # What OpenAI's fields do not say: sampling and refinement for every request.
    sampling: SamplingParams = field(default_factory=SamplingParams)
    refine_text: bool = True
    _active: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def library(self):
        if self.voices is None:
            from app.library import VoiceLibrary

            self.voices = VoiceLibrary()
        return self.voices

    def admit(self) -> None:
        with self._lock:
            if self._active >= self.max_queue:
                raise ApiError(
                    429,
                    _(
                        "The server has {count} requests in hand, its limit; try again in a few "
                        "seconds."
                    ).format(count=self.max_queue),
                    code="queue_full",
                    kind="rate_limit_error",
                    headers={"Retry-After": str(RETRY_AFTER_S)},
                )
            self._active += 1

    def release(self) -> None:
        with self._lock:
            self._active -= 1

    @property
    def active(self) -> int:
        return self._active


def create_app(state: ServerState, cors: list[str] | None = None) -> FastAPI:
    app = FastAPI(
        title="ChatTTS Studio speech server",
        version=__version__,
        description="OpenAI-compatible text to speech with ChatTTS.",
    )
    app.state.server = state
    install_handlers(app)
    # The last added runs first: the client's language, then CORS (its preflight needs no key,
    # and a refusal still carries its headers), the key, the body's size, and only then FastAPI,
    # which reads and parses the body.
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(ApiKeyCheck, key=lambda: state.api_key)
    if cors:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=cors,
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "Accept-Language", HEADER],
            expose_headers=[FINDINGS_HEADER],
        )
    app.add_middleware(ClientLanguage)

    def ready_engine():
        if state.engine is None:
            message = _said_again(state.load_error) or _(
                "The model is still loading; try again in a moment."
            )
            raise ApiError(
                503,
                message,
                code="model_not_ready",
                kind="server_error",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
        return state.engine

    @app.get("/health")
    def health():
        status = "ok" if state.engine is not None else ("error" if state.load_error else "loading")
        body = {
            "status": status,
            "version": __version__,
            "active": state.active,
            "max_queue": state.max_queue,
        }
        if state.engine is not None:
            body["device"] = str(getattr(state.engine.synthesizer.device, "device", ""))
            body["test_model"] = not state.engine.synthesizer.model_kind.makes_speech
        return JSONResponse(body, status_code=200 if status == "ok" else 503)

    @app.get("/v1/models")
    def models():
        return {
            "object": "list",
            "data": [
                {"id": name, "object": "model", "created": 0, "owned_by": "chattts-studio"}
                for name in MODELS
            ],
        }

    @app.get("/v1/voices")
    def voices():
        return {"object": "list", "data": voice_names(state.library().list())}

    @app.post(
        "/v1/audio/speech",
        responses={200: {"content": {m: {} for m in sorted(set(MEDIA_TYPES.values()))}}},
    )
    async def speech(
        body: SpeechRequest, x_take_check: str | None = Header(default=None, alias=HEADER)
    ):
        retry = wants_retry(x_take_check)  # a value it does not know is a 400, before any work
        engine = ready_engine()
        if body.model not in MODELS:
            raise ApiError(
                400,
                _("The model {model} is not served here; use one of: {choices}.").format(
                    model=repr(body.model[:80]), choices=", ".join(MODELS)
                ),
                code="model_not_found",
                param="model",
            )
        synth_request = await run_in_threadpool(_synthesis_request, state, engine, body)
        state.admit()
        try:
            job = engine.submit(synth_request, state.priority)
        except BaseException:
            state.release()
            raise
        if retry:
            return await _respond_checked(state, engine, job, body, synth_request)
        return await _respond(state, job, body)

    return app


def _synthesis_request(state: ServerState, engine, body: SpeechRequest) -> SynthesisRequest:
    try:
        text = check_speakable(check_text(body.input))
        hidden = engine.synthesizer.hidden_size
        voice = resolve_voice(body.voice, state.library().get, hidden)
        fields = {k: v for k, v in vars(voice).items() if v is not None}
        return SynthesisRequest(
            text=text,
            speed=chattts_speed(body.speed),
            sampling=replace(state.sampling),
            refine_text=state.refine_text,
            **fields,
        )
    except UnknownVoice as exc:
        raise ApiError(400, str(exc), code="voice_not_found", param="voice") from None
    except VoiceError as exc:
        raise ApiError(400, str(exc), code="invalid_voice", param="voice") from None
    except StudioError as exc:
        raise ApiError(400, str(exc), code="invalid_input", param="input") from None


def _said_again(sentence):
    """A sentence made outside this request (on the engine's thread, or at load) in the process's
    language, said again in the client's (tests/server/test_server_language.py)."""
    return None if sentence is None else str(again(sentence))


def _said(exc: BaseException) -> str:
    return (
        _said_again(exc.args[0])
        if len(exc.args) == 1 and isinstance(exc.args[0], str)
        else str(exc)
    )


def _engine_error(exc: StudioError) -> ApiError:
    if isinstance(exc, _BAD_REQUEST):
        return ApiError(400, _said(exc), code="invalid_input")
    if isinstance(exc, SynthesisCancelled):
        return ApiError(503, _said(exc), code="cancelled", kind="server_error")
    return ApiError(500, _said(exc), code="synthesis_failed", kind="server_error")


async def _next(events):
    """The job's next event without holding the event loop; a cancelled wait is abandoned (the
    job's cancel then ends the thread's wait)."""
    return await anyio.to_thread.run_sync(next, events, None, abandon_on_cancel=True)


async def _respond_checked(state: ServerState, engine, job, body: SpeechRequest, request):
    """The whole request made, each failing sentence made again, then streamed, with what the
    check found in a header (which must precede the body)."""
    retaker = Retaker(engine, request, state.priority)
    try:
        result, takes = await anyio.to_thread.run_sync(retaker.run, job, abandon_on_cancel=True)
    except StudioError as exc:
        state.release()
        raise _engine_error(exc) from None
    except BaseException:
        retaker.stop()
        state.release()
        raise
    checked = CheckedJob(result, takes, retaker)
    return await _respond(state, checked, body, {FINDINGS_HEADER: findings_header(takes)})


async def _respond(state: ServerState, job, body: SpeechRequest, headers: dict | None = None):
    events = iter(job)
    try:
        first = await _next(events)
    except StudioError as exc:
        state.release()
        raise _engine_error(exc) from None
    except BaseException:
        job.cancel()
        state.release()
        raise
    encoder = encoder_for(body.response_format)
    sse = body.stream_format == "sse"
    outcome = {"finished": False, "closed": False}

    def close() -> None:
        """Once, however the response ends (even before its body started)."""
        if outcome["closed"]:
            return
        outcome["closed"] = True
        if not outcome["finished"]:
            job.cancel()  # the client left, or the job failed: free its batch rows
        state.release()

    def frame(data: bytes) -> bytes:
        if not sse:
            return data
        return (
            b"data: "
            + json.dumps(
                {"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()}
            ).encode()
            + b"\n\n"
        )

    async def stream():
        item = first
        try:
            while item is not None:
                if isinstance(item, AudioChunk):
                    data = encoder.feed(item.samples)
                    if data:
                        yield frame(data)
                    item = await _next(events)
                else:
                    outcome["finished"] = True
                    break
            tail = encoder.finish()
            if tail:
                yield frame(tail)
            if sse:
                yield (
                    b"data: "
                    + json.dumps(
                        {
                            "type": "speech.audio.done",
                            "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0},
                        }
                    ).encode()
                    + b"\n\n"
                )
        except StudioError as exc:
            log.warning("speech request %s ended early: %s", job.id, exc)
            if sse:
                yield (
                    b"data: "
                    + json.dumps({"type": "error", "error": {"message": _said(exc)}}).encode()
                    + b"\n\n"
                )
            else:
                raise  # the connection closes without its last chunk: the client sees the failure
        finally:
            close()

    media = "text/event-stream" if sse else MEDIA_TYPES[body.response_format]
    return _JobResponse(stream(), media_type=media, headers=headers, on_close=close)


class _JobResponse(StreamingResponse):
    def __init__(self, *args, on_close, **kwargs):
        super().__init__(*args, **kwargs)
        self._on_close = on_close

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._on_close()
