"""The API key, checked before a request reaches its route.

Plain ASGI middleware, so it holds before FastAPI reads the body: an unauthenticated request is
401 whatever its body holds (tests/server/test_server_language.py)."""

from __future__ import annotations

import hmac

from fastapi.responses import JSONResponse

from app.i18n import _
from app.server.errors import error_body
from app.server.language import header


class ApiKeyCheck:
    """With a key set, every /v1/ request must carry it as Authorization: Bearer KEY; checked
    before the body is read or parsed. `key()` is read per request (the window can change it)."""

    def __init__(self, app, key):
        self.app, self.key = app, key

    async def __call__(self, scope, receive, send):
        key = self.key()
        if scope["type"] != "http" or key is None or not scope.get("path", "").startswith("/v1/"):
            return await self.app(scope, receive, send)
        scheme, _sep, token = header(scope, b"authorization").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), key.encode()):
            return await self.app(scope, receive, send)
        response = JSONResponse(
            error_body(
                _("The API key is missing or wrong; send it as Authorization: Bearer KEY."),
                code="invalid_api_key",
            ),
            status_code=401,
        )
        return await response(scope, receive, send)
