"""Cancel during a retry's back-off ends the download at once, not after the back-off.

The back-off here is an hour and time.sleep fails the test if anything calls it, so the only way
these downloads can end is the cancel ending the wait. The join's bound only keeps a broken
build from hanging the suite; nothing is measured.
"""

import threading
import time

import pytest
import requests

from app.core.errors import DownloadCancelled
from app.model.download import ModelDownloader
from app.model.download_progress import FileState
from app.model.files import MODEL_FILES, PART_SUFFIX, PARTIAL_DIR
from app.model.sources import Source

HOUR = 3600.0
EXPECTED = dict.fromkeys(MODEL_FILES, "0" * 64)


class _Response:
    def __init__(self, headers=None, body=(), breaks: threading.Event | None = None):
        """`breaks`: the body ends in a dropped connection, and this event says it dropped."""
        self.status_code, self.headers = 200, headers or {}
        self._body, self._breaks = body, breaks

    def iter_content(self, _chunk):
        yield from self._body
        if self._breaks is not None:
            self._breaks.set()
            raise requests.ConnectionError("connection reset by peer")

    def close(self):
        pass


class _Session:
    """Answers with `answer(method, call_number)`; `failed` is set once an answer was a failure."""

    def __init__(self, answer):
        self.answer, self.calls, self.failed = answer, [], threading.Event()

    def request(self, method, url, **kwargs):
        self.calls.append(method)
        try:
            return self.answer(method, len(self.calls))
        except requests.RequestException:
            self.failed.set()
            raise

    def close(self):
        pass


def _run_and_cancel_after_a_failure(tmp_path, session, monkeypatch):
    def no_sleep(seconds):
        raise AssertionError(f"time.sleep({seconds}) in a download cannot be cancelled")

    monkeypatch.setattr(time, "sleep", no_sleep)
    downloader = ModelDownloader(
        tmp_path / "m",
        Source("custom", "http://hub.invalid"),
        expected=EXPECTED,
        session=session,
        retries=4,
        backoff_s=HOUR,
    )
    outcome = []

    def run():
        try:
            downloader.run()
            outcome.append("finished")
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    assert session.failed.wait(60), "the fake hub was never asked"
    asked = len(session.calls)
    downloader.cancel()
    worker.join(60)
    assert not worker.is_alive(), "cancel did not end the back-off"
    assert len(outcome) == 1 and isinstance(outcome[0], DownloadCancelled), outcome
    assert len(session.calls) == asked  # no retry after the cancel
    return downloader


def test_cancel_ends_the_back_off_after_a_failed_request(tmp_path, monkeypatch):
    def answer(method, n):
        raise requests.ConnectionError("connection refused")

    session = _Session(answer)
    _run_and_cancel_after_a_failure(tmp_path, session, monkeypatch)
    assert session.calls == ["HEAD"]


def test_cancel_ends_the_back_off_after_a_broken_transfer_and_keeps_what_came(
    tmp_path, monkeypatch
):
    first = MODEL_FILES[0]

    def answer(method, n):
        if method == "HEAD":
            return _Response(headers={"Content-Length": "10"})
        if n == len(MODEL_FILES) + 1:  # the first GET: four bytes, then the connection breaks
            return _Response(body=[b"abcd"], breaks=session.failed)
        raise AssertionError("asked again after the transfer broke")

    session = _Session(answer)
    downloader = _run_and_cancel_after_a_failure(tmp_path, session, monkeypatch)
    assert session.calls == ["HEAD"] * len(MODEL_FILES) + ["GET"]
    item = downloader.progress.files[0]
    assert item.relpath == first and item.state is FileState.DOWNLOADING and item.done == 4
    part = tmp_path / "m" / PARTIAL_DIR / (first + PART_SUFFIX)
    assert part.read_bytes() == b"abcd"  # resumes from here next time


class _Stop(Exception):
    pass


def test_each_retry_waits_its_back_off_on_the_cancel_event(tmp_path, monkeypatch):
    """The wait is a real back-off, on the event Cancel sets: backoff_s * 2**attempt before each retry."""
    waits = []

    class CountingEvent(threading.Event):
        def wait(self, timeout=None):
            waits.append(timeout)
            return super().wait(0)  # the fake clock: the back-off passes at once

    def answer(method, n):
        if n <= 3:
            raise requests.ConnectionError("connection refused")
        raise _Stop  # the fourth try got through: enough to see the waits before it

    monkeypatch.setattr(
        time, "sleep", lambda s: pytest.fail(f"time.sleep({s}) cannot be cancelled")
    )
    downloader = ModelDownloader(
        tmp_path / "m",
        Source("custom", "http://hub.invalid"),
        expected=EXPECTED,
        session=_Session(answer),
        retries=4,
        backoff_s=1.5,
        cancel_event=CountingEvent(),
    )
    with pytest.raises(_Stop):
        downloader.run()
    assert waits == [1.5, 3.0, 6.0]
