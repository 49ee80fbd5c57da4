"""What runs before a request reaches its route: the client's language, and the API key.

Both are plain ASGI middleware, so they hold before FastAPI reads the body: an unauthenticated
request is 401 whatever its body holds (tests/server/test_server_language.py)."""

from __future__ import annotations

import hmac

from fastapi.responses import JSONResponse

from app.i18n import SOURCE_LANGUAGE, _, language_in_context
from app.server.errors import error_body

_MAX_HEADER_CHARS = 1000
# The languages the API speaks, by the primary subtag a client sends.
_SPOKEN = {"en": "en", "zh": "zh_CN"}


def _header(scope, name: bytes) -> str:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def client_language(accept_language: str) -> str:
    """The language an API client asks for in Accept-Language ("zh-CN,zh;q=0.9,en;q=0.8"):
    the most preferred one we speak; English when it names none. Never the window's or the
    process's language: an API answers in the client's."""
    choices = []
    for order, part in enumerate(accept_language[:_MAX_HEADER_CHARS].split(",")[:50]):
        tag, *params = [p.strip() for p in part.split(";")]
        weight = 1.0
        for param in params:
            if param.lower().startswith("q="):
                try:
                    weight = float(param[2:])
                except ValueError:
                    weight = 0.0
        language = _SPOKEN.get(tag.lower().split("-")[0].split("_")[0])
        if language and weight > 0:
            choices.append((-weight, order, language))
    return min(choices)[2] if choices else SOURCE_LANGUAGE


class ClientLanguage:
    """Every sentence made while a request is handled is in the client's language."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        with language_in_context(client_language(_header(scope, b"accept-language"))):
            return await self.app(scope, receive, send)


class ApiKeyCheck:
    """With a key set, every /v1/ request must carry it as Authorization: Bearer KEY; checked
    before the body is read or parsed. `key()` is read per request (the window can change it)."""

    def __init__(self, app, key):
        self.app, self.key = app, key

    async def __call__(self, scope, receive, send):
        key = self.key()
        if scope["type"] != "http" or key is None or not scope.get("path", "").startswith("/v1/"):
            return await self.app(scope, receive, send)
        scheme, _sep, token = _header(scope, b"authorization").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), key.encode()):
            return await self.app(scope, receive, send)
        response = JSONResponse(error_body(_("The API key is missing or wrong; send it as Authorization: Bearer KEY."),
                                           code="invalid_api_key"), status_code=401)
        return await response(scope, receive, send)
