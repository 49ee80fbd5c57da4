"""Errors in OpenAI's JSON shape, and the body-size cap that runs before any parsing.

Every error body is {"error": {"message", "type", "param", "code"}}; a bug is logged with its
traceback and answered with one sentence, never the traceback."""

from __future__ import annotations

import json
import logging

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.i18n import N_, _, language_in_context
from app.server.language import client_language

log = logging.getLogger("chattts_studio.server")
# Python's json parser's complaints, said in the client's language like the sentence around
# them (tests/server/test_server_language.py); one not listed is quoted as it is.
_JSON_REASONS = {
    m: m
    for m in (
        N_("Expecting value"),
        N_("Expecting property name enclosed in double quotes"),
        N_("Expecting ':' delimiter"),
        N_("Expecting ',' delimiter"),
        N_("Invalid \\escape"),
        N_("Extra data"),
    )
}
_JSON_REASONS.update(
    {
        "Unterminated string starting at": N_("Unterminated string"),  # "at" the position
        "Invalid control character at": N_("Invalid control character"),
    }
)


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        message: str,
        code: str | None = None,
        param: str | None = None,
        kind: str = "invalid_request_error",
        headers: dict | None = None,
    ):
        super().__init__(message)
        self.status, self.message, self.code, self.param, self.kind = (
            status,
            message,
            code,
            param,
            kind,
        )
        self.headers = headers or {}


def error_body(
    message: str,
    kind: str = "invalid_request_error",
    code: str | None = None,
    param: str | None = None,
) -> dict:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(
        error_body(error.message, error.kind, error.code, error.param),
        status_code=error.status,
        headers=error.headers,
    )


async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
    return error_response(exc)


async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = exc.errors()
    first = problems[0] if problems else {}
    if first.get("type") == "json_invalid":
        # Its location is ("body", byte offset): an offset, not a field (tests/server/test_server_language.py).
        where = [part for part in first.get("loc", ()) if isinstance(part, int)]
        reason = str((first.get("ctx") or {}).get("error") or "").rstrip(".") or _("unreadable")
        reason = _(_JSON_REASONS[reason]) if reason in _JSON_REASONS else reason
        message = (
            _("The request body is not valid JSON: {reason} at character {position}.").format(
                reason=reason, position=where[0]
            )
            if where
            else _("The request body is not valid JSON: {reason}.").format(reason=reason)
        )
        return JSONResponse(error_body(message, code="invalid_json", param=None), status_code=422)
    location = [str(part) for part in first.get("loc", ()) if part != "body"]
    param = ".".join(location) or None
    message = _("The request's {field} is not valid: {problem}.").format(
        field=param or _("body"), problem=str(first.get("msg", "")).rstrip(".") or _("unreadable")
    )
    return JSONResponse(error_body(message, code="invalid_value", param=param), status_code=422)


async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
    if exc.status_code == 404:
        message = _(
            "There is nothing at this address; the speech server offers /v1/audio/speech, "
            "/v1/models, /v1/voices and /health."
        )
    elif exc.status_code == 405:
        message = _("This address does not take that method.")
    else:
        message = str(exc.detail)
    return JSONResponse(
        error_body(message, code=str(exc.status_code)),
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
    )


async def _bug(request: Request, exc: Exception) -> JSONResponse:
    """Starlette calls this outside every middleware, the client's language included: it is set
    again here."""
    log.error("speech server request failed", exc_info=exc)
    with language_in_context(client_language(request.headers.get("accept-language", ""))):
        message = _("The server failed on this request; its log has the details.")
    return JSONResponse(error_body(message, kind="server_error"), status_code=500)


def install_handlers(app) -> None:
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _bug)


class BodyLimit:
    """ASGI middleware: a body over `limit` bytes gets 413 before any of it is parsed, whether
    it announces its length or comes chunked."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or ()).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            return await self._refuse(send)
        received = 0
        chunks = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            received += len(message.get("body", b""))
            if received > self.limit:
                return await self._refuse(send)
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await self.app(scope, replay, send)

    async def _refuse(self, send):
        payload = json.dumps(
            error_body(
                _("The request body is larger than {limit} bytes; send less text.").format(
                    limit=f"{self.limit:,}"
                ),
                code="request_too_large",
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
