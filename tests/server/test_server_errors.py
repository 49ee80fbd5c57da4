"""Errors reach the openai client as its own exception types, with our sentences, in OpenAI's
JSON shape: 400/422 bad input, 401 key, 413 body size, 429 queue full, 503 no model yet; a bug
is a 500 without a traceback. No CORS unless asked."""

from __future__ import annotations

import httpx
import openai
import pytest

from tests.server.conftest import FAST, Gate, fast_sampling, wait_for

TEXT = "Hello there."


def _state(**fields):
    return dict(sampling=fast_sampling(), **FAST, **fields)


def _speak(client, **fields):
    ask = dict(model="tts-1", voice="alloy", input=TEXT, response_format="pcm")
    ask.update(fields)
    return client.audio.speech.create(**ask)


def _shape(response: httpx.Response) -> dict:
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


@pytest.mark.parametrize(
    "fields, exc_type, says",
    [
        (dict(voice="nobody"), openai.BadRequestError, "There is no voice named 'nobody'"),
        (dict(voice="seed:-3"), openai.BadRequestError, "is not a seed"),
        (dict(voice="x" * 200), openai.BadRequestError, "speaker"),
        (dict(model="whisper-1"), openai.BadRequestError, "is not served here"),
        (dict(input="[uv_break]"), openai.BadRequestError, ""),
        (dict(input="a" * 4097), openai.UnprocessableEntityError, "input"),
        (dict(speed=5.0), openai.UnprocessableEntityError, "speed"),
        (dict(response_format="ogg"), openai.UnprocessableEntityError, "response_format"),
    ],
)
def test_bad_requests_raise_the_clients_exception_with_our_sentence(
    serve, engine, fields, exc_type, says
):
    server = serve(engine, **_state())
    with pytest.raises(exc_type) as caught:
        _speak(server.client(), **fields)
    assert says in caught.value.message
    assert "Traceback" not in caught.value.message
    assert server.state.active == 0


def test_a_wrong_or_missing_key_is_401_and_the_right_key_speaks(serve, engine):
    server = serve(engine, api_key="s3cret-key", **_state())
    with pytest.raises(openai.AuthenticationError) as caught:
        _speak(server.client("wrong-key"))
    assert "API key is missing or wrong" in caught.value.message
    assert httpx.get(server.url + "/v1/models").status_code == 401
    assert len(_speak(server.client("s3cret-key")).content) > 0


@pytest.mark.parametrize("chunked", [False, True])
def test_a_body_over_the_cap_is_413_before_parsing(serve, engine, chunked):
    server = serve(engine, **_state())
    body = b'{"model": "tts-1", "voice": "alloy", "input": "' + b"a" * 70_000 + b'"}'
    content = iter([body[:1000], body[1000:]]) if chunked else body
    response = httpx.post(
        server.url + "/v1/audio/speech",
        content=content,
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert "larger than" in _shape(response)["message"]


def test_a_full_queue_is_429_with_retry_after(serve, engine):
    gate = Gate()
    server = serve(engine, max_queue=1, wrap_submit=gate, **_state())
    body = dict(model="tts-1", voice="alloy", input=TEXT, response_format="pcm")
    with httpx.stream("POST", server.url + "/v1/audio/speech", json=body, timeout=120) as held:
        chunks = held.iter_bytes()
        next(chunks)  # the first request is in hand, its end held by the gate
        with pytest.raises(openai.RateLimitError) as caught:
            _speak(server.client())
        assert int(caught.value.response.headers["retry-after"]) > 0
        assert "limit" in caught.value.message
        gate.open()
        b"".join(chunks)
    wait_for(lambda: server.state.active == 0, "the held request finished")
    assert len(_speak(server.client()).content) > 0


def test_no_model_yet_is_503_and_health_says_loading(serve):
    server = serve(None)
    with pytest.raises(openai.InternalServerError) as caught:
        _speak(server.client())
    assert caught.value.status_code == 503
    assert "still loading" in caught.value.message
    health = httpx.get(server.url + "/health")
    assert health.status_code == 503 and health.json()["status"] == "loading"


def test_a_failed_load_is_503_with_its_sentence(serve):
    server = serve(None, load_error="The model folder /m is missing files; download it again.")
    with pytest.raises(openai.InternalServerError) as caught:
        _speak(server.client())
    assert "missing files" in caught.value.message


def test_a_bug_is_500_without_a_traceback(serve, engine):
    def broken(engine, request, priority):
        raise RuntimeError("secret internals at /home/x/file.py line 3")

    server = serve(engine, wrap_submit=broken, **_state())
    response = httpx.post(
        server.url + "/v1/audio/speech", json=dict(model="tts-1", voice="alloy", input=TEXT)
    )
    assert response.status_code == 500
    error = _shape(response)
    assert "log has the details" in error["message"]
    assert "secret" not in response.text and "Traceback" not in response.text
    assert server.state.active == 0


def test_unknown_address_is_404_in_openai_shape(serve, engine):
    response = httpx.get(serve(engine).url + "/v1/nothing")
    assert response.status_code == 404 and "/v1/audio/speech" in _shape(response)["message"]


def test_no_cors_unless_an_origin_is_given(serve, engine):
    preflight = {"Origin": "https://example.org", "Access-Control-Request-Method": "POST"}
    plain = httpx.options(serve(engine).url + "/v1/audio/speech", headers=preflight)
    assert "access-control-allow-origin" not in plain.headers
    allowed = httpx.options(
        serve(engine, cors=["https://example.org"]).url + "/v1/audio/speech", headers=preflight
    )
    assert allowed.headers["access-control-allow-origin"] == "https://example.org"
