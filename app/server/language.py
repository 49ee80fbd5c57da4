"""The language of the API's sentences: the client's (Accept-Language), English by default,
never the window's or the process's (tests/server/test_server_language.py)."""

from __future__ import annotations

from app.i18n import SOURCE_LANGUAGE, language_in_context, match

_MAX_HEADER_CHARS = 1000


def header(scope, name: bytes) -> str:
    """An ASGI request's header, decoded as HTTP headers are (Latin-1); "" when absent."""
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
        language = match(tag)  # one of the languages we speak, or None
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
        with language_in_context(client_language(header(scope, b"accept-language"))):
            return await self.app(scope, receive, send)
