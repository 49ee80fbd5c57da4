"""What the downloader does with each kind of HTTP answer, against a scripted session (no
server, no network): which size it trusts, how it resumes, what it retries and what it does
not, and when the disk is too full. Hugging Face answers a HEAD for an LFS file with a
redirect whose Content-Length is not the file's; X-Linked-Size is (its hub docs)."""

import hashlib
from urllib.parse import unquote

import pytest
import requests

from app.core.errors import DownloadError
from app.model import download
from app.model.download import ModelDownloader
from app.model.download_progress import FileState
from app.model.files import MODEL_FILES, PART_SUFFIX, PARTIAL_DIR, QUARANTINE_DIR
from app.model.sources import Source

BODIES = {rel: (rel.encode() + b"-weights-") * 50 for rel in MODEL_FILES}
EXPECTED = {rel: hashlib.sha256(body).hexdigest() for rel, body in BODIES.items()}
ONE = "asset/DVAE.safetensors"


class _Response:
    def __init__(self, status=200, headers=None, body=b""):
        self.status_code, self.headers, self._body = status, headers or {}, body
        self.closed = False

    def iter_content(self, chunk):
        for i in range(0, len(self._body), 7):  # small blocks: a limit is hit mid-file
            yield self._body[i : i + 7]

    def close(self):
        self.closed = True


class _Hub:
    """Serves BODIES like a hub; `script[(method, rel)]` is a list of answers used first, each an
    exception to raise, a status code, or a function (headers, body) -> _Response."""

    def __init__(self, head=lambda body: {"Content-Length": str(len(body))}, ranges=True):
        self.head, self.ranges, self.script, self.calls = head, ranges, {}, []

    def request(self, method, url, **kwargs):
        rel = next(r for r in MODEL_FILES if unquote(url).endswith(r))
        headers = kwargs.get("headers") or {}
        self.calls.append((method, rel, headers.get("Range")))
        body = BODIES[rel]
        queued = self.script.get((method, rel))
        if queued:
            answer = queued.pop(0)
            if isinstance(answer, Exception):
                raise answer
            if isinstance(answer, int):
                return _Response(answer)
            return answer(headers, body)
        if method == "HEAD":
            return _Response(200, self.head(body))
        start = int(headers["Range"][6:-1]) if "Range" in headers and self.ranges else 0
        return _Response(
            206 if start else 200, {"Content-Length": str(len(body) - start)}, body[start:]
        )

    def close(self):
        pass


def _downloader(tmp_path, hub, **kw):
    return ModelDownloader(
        tmp_path / "m",
        Source("custom", "http://hub.invalid"),
        expected=EXPECTED,
        session=hub,
        retries=kw.pop("retries", 2),
        backoff_s=0,
        **kw,
    )


def _calls(hub, method, rel=ONE):
    return [c for c in hub.calls if c[:2] == (method, rel)]


def _is_complete(folder):
    return all((folder / rel).read_bytes() == BODIES[rel] for rel in MODEL_FILES)


def test_the_linked_size_wins_over_the_redirects_content_length(tmp_path):
    hub = _Hub(head=lambda body: {"X-Linked-Size": str(len(body)), "Content-Length": "12"})
    progress = _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m")
    assert {f.relpath: f.total for f in progress.files} == {
        rel: len(b) for rel, b in BODIES.items()
    }
    assert all(f.state == FileState.OK and f.sha256_ok for f in progress.files)
    assert not (tmp_path / "m" / PARTIAL_DIR).exists()


def test_without_a_size_in_the_head_the_gets_length_bounds_the_file(tmp_path):
    hub = _Hub(head=lambda body: {"Content-Length": "unknown"})
    progress = _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m") and all(f.total is None for f in progress.files)
    # A body longer than its own Content-Length is cut off and nothing of it kept.
    hub = _Hub(head=lambda body: {})
    hub.script[("GET", ONE)] = [lambda h, body: _Response(200, {"Content-Length": "10"}, body)]
    with pytest.raises(DownloadError, match="more than the 10 bytes"):
        _downloader(tmp_path / "again", hub).run()
    assert not (tmp_path / "again" / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)).exists()


def test_a_partial_file_resumes_with_a_range_and_a_206_length_counts_from_there(tmp_path):
    body = BODIES[ONE]
    part = tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes(body[:100])
    hub = _Hub(head=lambda b: {})  # no size known: the 206's length plus what we have
    _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m")
    assert _calls(hub, "GET") == [("GET", ONE, "bytes=100-")]
    assert _calls(hub, "GET", MODEL_FILES[0]) == [("GET", MODEL_FILES[0], None)]


def test_a_complete_partial_file_is_not_asked_for_again(tmp_path):
    part = tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes(BODIES[ONE])
    hub = _Hub()
    _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m") and _calls(hub, "GET") == []


def test_a_server_that_ignores_the_range_restarts_the_file(tmp_path):
    part = tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes(b"stale bytes that are not the start of the file")
    hub = _Hub(ranges=False)
    _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m")
    assert not list((tmp_path / "m").glob(f"{QUARANTINE_DIR}/**/*.safetensors.*"))


@pytest.mark.parametrize("status, words", [(404, "HTTP 404"), (403, "HTTP 403"), (401, "HTTP 401")])
def test_a_missing_or_refused_file_is_not_asked_for_again(tmp_path, status, words):
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [status]
    with pytest.raises(DownloadError, match=words):
        _downloader(tmp_path, hub, retries=3).run()
    assert len(_calls(hub, "HEAD")) == 1


@pytest.mark.parametrize("status", [500, 503, 429])
def test_a_busy_or_failing_server_is_asked_again(tmp_path, status):
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [status, status]
    _downloader(tmp_path, hub, retries=2).run()
    assert len(_calls(hub, "HEAD")) == 3 and _is_complete(tmp_path / "m")
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [status] * 3
    with pytest.raises(DownloadError, match=f"kept failing \\(HTTP {status}\\)"):
        _downloader(tmp_path / "again", hub, retries=2).run()
    assert len(_calls(hub, "HEAD")) == 3


def test_a_dropped_connection_is_retried_but_a_silent_server_is_not(tmp_path):
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [
        requests.ConnectionError("reset"),
        requests.ConnectionError("reset"),
    ]
    _downloader(tmp_path, hub, retries=2).run()
    assert len(_calls(hub, "HEAD")) == 3
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [requests.ConnectionError("refused")] * 3
    with pytest.raises(DownloadError, match="Could not connect"):
        _downloader(tmp_path / "b", hub, retries=2).run()
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [requests.ReadTimeout("slow")]
    with pytest.raises(DownloadError, match="sent nothing for 30 s"):
        _downloader(tmp_path / "c", hub, retries=2).run()
    assert len(_calls(hub, "HEAD")) == 1


def test_a_broken_transfer_resumes_where_it_broke(tmp_path):
    hub = _Hub()

    def broken(headers, body):
        response = _Response(200, {"Content-Length": str(len(body))}, body)
        blocks = response.iter_content

        def some_then_drop(chunk):
            for i, block in enumerate(blocks(chunk)):
                if i == 5:
                    raise requests.ConnectionError("reset")
                yield block

        response.iter_content = some_then_drop
        return response

    hub.script[("GET", ONE)] = [broken]
    _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m")
    assert [c[2] for c in _calls(hub, "GET")] == [None, "bytes=35-"]


def test_a_transfer_that_keeps_breaking_is_tried_retries_plus_one_times(tmp_path):
    def dropped(headers, body):
        response = _Response(200, {"Content-Length": str(len(body))}, body)
        response.iter_content = lambda chunk: iter(())  # closed before the first byte
        return response

    hub = _Hub()
    hub.script[("GET", ONE)] = [dropped] * 5
    with pytest.raises(DownloadError, match="kept breaking"):
        _downloader(tmp_path, hub, retries=2).run()
    assert len(_calls(hub, "GET")) == 3


def test_a_checksum_mismatch_is_fetched_once_more_then_refused(tmp_path):
    bad = lambda h, body: _Response(200, {}, body[::-1])  # noqa: E731
    hub = _Hub()
    hub.script[("GET", ONE)] = [bad]
    progress = _downloader(tmp_path, hub).run()
    assert (
        _is_complete(tmp_path / "m")
        and len(list((tmp_path / "m" / QUARANTINE_DIR).rglob("*.*.*"))) == 1
    )
    assert next(f for f in progress.files if f.relpath == ONE).state == FileState.OK
    hub = _Hub()
    hub.script[("GET", ONE)] = [bad, bad]
    downloader = _downloader(tmp_path / "again", hub)
    with pytest.raises(DownloadError, match="even after a second download"):
        downloader.run()
    item = next(f for f in downloader.progress.files if f.relpath == ONE)
    assert (item.state, item.sha256_ok) == (FileState.FAILED, False)
    assert not (tmp_path / "again" / "m" / ONE).exists()


def test_disk_space_counts_what_is_still_to_come_plus_a_margin(tmp_path, monkeypatch):
    total = sum(len(b) for b in BODIES.values())
    part = tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes(BODIES[ONE][:100])
    need = total - 100 + download.DISK_MARGIN

    def free(bytes_free):
        monkeypatch.setattr(
            download.shutil, "disk_usage", lambda p: type("U", (), {"free": bytes_free})()
        )

    free(need - 1)
    with pytest.raises(DownloadError, match="Not enough disk space"):
        _downloader(tmp_path, _Hub()).run()
    free(need)
    _downloader(tmp_path, _Hub()).run()
    assert _is_complete(tmp_path / "m")


def test_files_already_good_are_present_and_not_fetched(tmp_path):
    _downloader(tmp_path, _Hub()).run()
    hub = _Hub()
    progress = _downloader(tmp_path, hub).run()
    assert hub.calls == []
    assert all(
        f.state == FileState.PRESENT and f.total == f.done == len(BODIES[f.relpath])
        for f in progress.files
    )


@pytest.mark.parametrize(
    "exc, words",
    [
        (
            requests.ConnectionError("NameResolutionError: cannot resolve"),
            "Could not find hub.example",
        ),
        (requests.ConnectionError("Failed to resolve 'hub.example'"), "Could not find hub.example"),
        (
            requests.ConnectionError("[Errno -2] Name or service not known"),
            "Could not find hub.example",
        ),
        (
            requests.ConnectionError("[Errno 11001] getaddrinfo failed"),
            "Could not find hub.example",
        ),
        (
            requests.ConnectionError("[Errno -3] Temporary failure in name resolution"),
            "Could not find hub.example",
        ),
        (
            requests.ConnectionError("[Errno 8] nodename nor servname provided"),
            "Could not find hub.example",
        ),
        (
            requests.exceptions.SSLError("handshake failure"),
            "secure connection",
        ),  # said by its type
        (requests.ConnectionError("certificate verify failed"), "secure connection"),
        (requests.ConnectionError("[Errno 111] Connection refused"), "Could not connect"),
        (requests.ConnectionError("NewConnectionError('...')"), "Could not connect"),
        (requests.ConnectionError("ConnectTimeoutError(...)"), "Could not connect"),
    ],
)
def test_each_sign_of_a_failed_connection_is_said_in_words(exc, words):
    from app.model.download_failures import connection_problem

    assert words in connection_problem("hub.example", exc)


def test_an_unknown_source_gets_the_suggestions_for_a_custom_one():
    from app.model.download_failures import choices_after

    assert choices_after("no such source") == choices_after("custom")
