"""`X-Take-Check: retry` (issue 42): each failing sentence is made again with the next seed, up
to two more times, before the response starts, and `X-Take-Check-Findings` says what the check
found; without the header nothing is checked; a value it does not know is a 400."""

from __future__ import annotations

import json

import httpx
import numpy as np
import pytest

from app import audio
from app.server.take_check import FINDINGS_HEADER
from tests.server.conftest import FAST, fast_sampling

TEXT = "Hello there. How are you today?"
BODY = {"model": "chattts", "voice": "echo", "input": TEXT, "response_format": "pcm"}


class Recorded:
    """A wrap_submit that keeps every request the server submits."""

    def __init__(self):
        self.requests = []

    def __call__(self, engine, request, priority):
        self.requests.append(request)
        return engine.submit(request, priority)


def _server(serve, engine):
    submitted = Recorded()
    server = serve(engine, wrap_submit=submitted, sampling=fast_sampling(), **FAST)
    return server, submitted


def _speech(server, headers=None) -> httpx.Response:
    return httpx.post(
        server.url + "/v1/audio/speech", json=BODY, headers=headers or {}, timeout=300
    )


@pytest.fixture
def checks(monkeypatch):
    """Every take check the server runs (the real checker still judges)."""
    made = []
    real = audio.check_take

    def counted(*args, **kwargs):
        report = real(*args, **kwargs)
        made.append(report)
        return report

    monkeypatch.setattr(audio, "check_take", counted)
    return made


@pytest.mark.parametrize("value", [None, "off", "OFF"])
def test_without_retry_nothing_is_checked_and_nothing_is_said(serve, engine, checks, value):
    server, submitted = _server(serve, engine)
    reply = _speech(server, None if value is None else {"X-Take-Check": value})
    assert reply.status_code == 200
    assert np.frombuffer(reply.content, dtype="<i2").size > 0
    assert FINDINGS_HEADER not in reply.headers
    assert checks == [] and len(submitted.requests) == 1


def test_retry_makes_each_failing_sentence_again_with_the_next_seed(serve, engine, checks):
    server, submitted = _server(serve, engine)
    reply = _speech(server, {"X-Take-Check": "retry"})
    assert reply.status_code == 200, reply.text
    first, *again = submitted.requests
    # The random test model makes noise: both sentences fail, each is made twice more.
    assert [r.text for r in again] == [
        "Hello there.",
        "Hello there.",
        "How are you today?",
        "How are you today?",
    ]
    assert [r.seed for r in again] == [first.seed + 1, first.seed + 2] * 2
    assert len({r.speaker for r in again}) == 1 and again[0].speaker  # the request's voice
    assert len(checks) == 6
    found = json.loads(reply.headers[FINDINGS_HEADER])
    assert found["checked"] is True
    assert found["count"] == 2 and found["truncated"] is False
    assert [(s["index"], s["tries"]) for s in found["sentences"]] == [(0, 3), (1, 3)]
    for sentence in found["sentences"]:
        assert sentence["findings"] == ["no_speech"]
        assert 0 <= sentence["kept"] < 3
    heard = np.frombuffer(reply.content, dtype="<i2")
    assert heard.size > 0
    # The same request again gives the same takes (every seed follows from the request's).
    assert _speech(server, {"X-Take-Check": "retry"}).content == reply.content


@pytest.mark.parametrize("value", ["yes", "retry please", "x" * 500, "重试"])
def test_a_value_it_does_not_know_is_a_400_with_one_sentence(serve, engine, checks, value):
    server, submitted = _server(serve, engine)
    headers = {"X-Take-Check": value.encode("utf-8")}
    reply = httpx.post(server.url + "/v1/audio/speech", json=BODY, headers=headers, timeout=60)
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["code"] == "invalid_header" and error["param"] == "X-Take-Check"
    message = error["message"]
    assert message.startswith("The header X-Take-Check takes the value retry or off")
    assert message.count(". ") == 0 and message.endswith(".") and len(message) < 200
    assert submitted.requests == [] and checks == []


def _take(tries: int, findings: tuple = ()):
    from app.audio import TakeReport
    from app.server.take_check import SentenceTake

    report = TakeReport(findings, 1.0, 1.0, None, checked=True)
    return SentenceTake(np.zeros(10, np.float32), report, tries, 0)


def test_the_findings_header_lists_only_what_was_made_again_or_is_flagged_and_stays_small():
    from app.audio import Finding, FindingKind
    from app.server.take_check import LISTED_MAX, findings_header

    flagged = (Finding.of(FindingKind.NO_SPEECH, 0.0, 0.3),)
    takes = [_take(1)] * 3 + [_take(2), _take(3, flagged)] + [_take(1)] * 5
    found = json.loads(findings_header(takes))
    assert found["count"] == 10 and found["truncated"] is False
    assert [(s["index"], s["tries"], s["findings"]) for s in found["sentences"]] == [
        (3, 2, []),
        (4, 3, ["no_speech"]),
    ]
    # 4,096 characters of short sentences, every one made again: the header stays under 4 KB.
    many = json.loads(header := findings_header([_take(3, flagged)] * 2000))
    assert many["count"] == 2000 and many["truncated"] is True
    assert len(many["sentences"]) == LISTED_MAX and len(header) < 4096


def test_a_checker_that_fails_sends_the_take_unchecked(serve, engine, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("silero_vad.jit is damaged")

    monkeypatch.setattr(audio, "check_take", broken)
    server, submitted = _server(serve, engine)
    reply = _speech(server, {"X-Take-Check": "retry"})
    assert reply.status_code == 200, reply.text
    assert np.frombuffer(reply.content, dtype="<i2").size > 0
    found = json.loads(reply.headers[FINDINGS_HEADER])
    assert found["checked"] is False and found["sentences"] == []
    assert len(submitted.requests) == 1  # nothing made again without a check
