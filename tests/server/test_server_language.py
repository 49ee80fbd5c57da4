"""The API speaks English unless the client asks otherwise (Accept-Language), whatever language
the window or the process uses; the key is checked before the body is read; a body that is not
JSON is said as such, with no byte offset posing as a field."""

from __future__ import annotations

import re

import httpx
import pytest

from app import i18n
from app.server.language import client_language

HAN = re.compile(r"[\u4e00-\u9fff]")
SPEECH = "/v1/audio/speech"
BODY = dict(model="tts-1", voice="alloy", input="Hello there.")


@pytest.fixture
def chinese_process():
    """The window (or the system) runs in Chinese."""
    before = i18n.current_language()
    i18n.set_language("zh_CN")
    yield
    i18n.set_language(before)


def _message(response: httpx.Response) -> str:
    return response.json()["error"]["message"]


def _asks(server, accept_language=None):
    """One request of each kind of refusal: (status, message)."""
    headers = {"Accept-Language": accept_language} if accept_language else {}
    return [
        httpx.get(server.url + "/v1/nothing", headers=headers),  # 404
        httpx.post(server.url + SPEECH, json={**BODY, "speed": 9}, headers=headers),  # 422
        httpx.post(
            server.url + SPEECH, json={**BODY, "voice": "nobody"}, headers=headers
        ),  # 400, in a thread
        httpx.post(server.url + SPEECH, content=b"x" * 70_000, headers=headers),  # 413
    ]


@pytest.mark.parametrize(
    "accept_language", [None, "en-US,en;q=0.9", "fr-FR, de;q=0.8", "*", "zh;q=0"]
)
def test_an_api_client_gets_english_from_a_chinese_window_unless_it_asks(
    chinese_process, serve, engine, accept_language
):
    server = serve(engine)
    responses = _asks(server, accept_language)
    assert [r.status_code for r in responses] == [404, 422, 400, 413]
    for response in responses:
        assert not HAN.search(_message(response)), _message(response)
    assert "There is no voice named 'nobody'" in _message(responses[2])


@pytest.mark.parametrize(
    "accept_language", ["zh-CN,zh;q=0.9,en;q=0.8", "fr, zh-TW;q=0.5", "en;q=0.3, zh"]
)
def test_a_client_that_asks_for_chinese_gets_chinese_from_an_english_process(
    serve, engine, accept_language
):
    assert i18n.current_language() == "en"
    responses = _asks(serve(engine), accept_language)
    assert [r.status_code for r in responses] == [404, 422, 400, 413]
    for response in responses:
        assert HAN.search(_message(response)), _message(response)
    assert i18n.current_language() == "en"  # the process's language is untouched


def test_accept_language_picks_the_most_preferred_language_we_speak():
    assert client_language("") == "en"
    assert client_language("de-DE,zh-Hans;q=0.7,en;q=0.6") == "zh_CN"
    assert client_language("de-DE,en;q=0.7,zh;q=0.6") == "en"
    assert client_language("zh;q=abc, en") == "en"
    assert client_language("zh-CN;q=0, en;q=0") == "en"
    assert client_language("," * 5000 + "zh") == "en"  # a huge header is cut, not parsed whole


@pytest.mark.parametrize(
    "body, headers",
    [
        (b'{"model": "tts-1", "input": "hi",,}', {"Content-Type": "application/json"}),
        (b"not json at all", {"Content-Type": "application/json"}),
        (b"x" * 70_000, {"Content-Type": "application/json"}),  # over the size cap too
        (b"[]", {"Content-Type": "application/json", "Authorization": "Bearer wrong"}),
    ],
)
def test_with_a_key_an_unauthenticated_request_is_401_whatever_its_body(serve, body, headers):
    server = serve(None, api_key="s3cret-key")
    response = httpx.post(server.url + SPEECH, content=body, headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "invalid_api_key"
    assert "API key is missing or wrong" in _message(response)


def test_invalid_json_is_said_as_such_with_no_offset_for_a_field(serve):
    server = serve(None, api_key="s3cret-key")
    broken = b'{"model": "tts-1", "voice": "alloy", "input": "hi",,}'
    response = httpx.post(
        server.url + SPEECH,
        content=broken,
        headers={"Content-Type": "application/json", "Authorization": "Bearer s3cret-key"},
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["param"] is None and error["code"] == "invalid_json"
    assert error["message"] == (
        "The request body is not valid JSON: Expecting property name enclosed in "
        f"double quotes at character {broken.index(b',,') + 1}."
    )


@pytest.mark.parametrize("accept_language, chinese", [(None, False), ("zh-CN", True)])
def test_a_bug_is_said_in_the_clients_language_too(
    chinese_process, serve, engine, accept_language, chinese
):
    """Starlette answers an unexpected exception outside every middleware of ours."""

    def broken(engine, request, priority):
        raise RuntimeError("secret internals")

    server = serve(engine, wrap_submit=broken)
    headers = {"Accept-Language": accept_language} if accept_language else {}
    response = httpx.post(server.url + SPEECH, json=BODY, headers=headers)
    assert response.status_code == 500
    assert bool(HAN.search(_message(response))) is chinese, _message(response)


@pytest.mark.parametrize(
    "broken, english, chinese",
    [
        (
            b'{"model": "tts-1",,}',
            "Expecting property name enclosed in double quotes at character 18.",
            "第 18 个字符处出错（此处应为用双引号括起来的属性名）。",
        ),
        (
            b'{"input": "hi',
            "Unterminated string at character 10.",
            "第 10 个字符处出错（字符串没有结束）。",
        ),
    ],
)
def test_the_json_parsers_complaint_is_in_the_clients_language_too(serve, broken, english, chinese):
    server = serve(None)
    said = {}
    for language in ("en", "zh-CN"):
        response = httpx.post(
            server.url + SPEECH,
            content=broken,
            headers={"Content-Type": "application/json", "Accept-Language": language},
        )
        assert response.status_code == 422
        said[language] = _message(response)
    assert said["en"] == "The request body is not valid JSON: " + english
    assert said["zh-CN"] == "请求体不是有效的 JSON：" + chinese


class _FailingJob:
    """A job whose engine thread failed with `error` (said there, in the process's language)."""

    def __init__(self, error):
        self.error = error

    def __iter__(self):
        raise self.error
        yield  # a generator, as a real job's events are

    def cancel(self):
        pass


@pytest.mark.parametrize("accept_language, chinese", [(None, False), ("zh-CN", True)])
def test_an_engine_threads_failure_is_said_in_the_clients_language(
    chinese_process, serve, engine, accept_language, chinese
):
    """The engine's thread makes its sentence in the process's language; the client hears its own."""
    from app.core.errors import StudioError
    from app.synthesis.messages import out_of_memory_speaking

    said_on_the_engine_thread = out_of_memory_speaking("cuda:0")
    assert HAN.search(said_on_the_engine_thread)
    server = serve(
        engine, wrap_submit=lambda *_: _FailingJob(StudioError(said_on_the_engine_thread))
    )
    headers = {"Accept-Language": accept_language} if accept_language else {}
    response = httpx.post(server.url + SPEECH, json=BODY, headers=headers)
    assert response.status_code == 500
    message = _message(response)
    assert bool(HAN.search(message)) is chinese, message
    assert "cuda:0" in message and "--device cpu" in message


def test_why_the_model_did_not_load_is_said_in_the_clients_language(chinese_process, serve):
    """`serve` keeps the load failure as it was said (in the process's language) for every client."""
    from app.synthesis.messages import out_of_memory_alone

    server = serve(None, load_error=out_of_memory_alone("cuda:0"))
    english = httpx.post(server.url + SPEECH, json=BODY)
    chinese = httpx.post(server.url + SPEECH, json=BODY, headers={"Accept-Language": "zh"})
    assert english.status_code == chinese.status_code == 503
    assert not HAN.search(_message(english)) and HAN.search(_message(chinese))
