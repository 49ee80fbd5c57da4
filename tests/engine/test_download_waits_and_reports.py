"""The downloader's timing and what it tells the window: how long it waits between tries, when a
progress report goes out and what speed it shows, which states a file passes through, and the
edges of its size and space arithmetic. Against the scripted hub of
test_download_protocol_edges (no server, no network) and a fake clock."""

import threading

import pytest
import requests

from app.core.errors import DownloadError
from app.model import download
from app.model.download import ModelDownloader
from app.model.download_progress import FileState
from app.model.files import MODEL_FILES, PART_SUFFIX, PARTIAL_DIR
from app.model.sources import Source
from app.model.store import ModelStore
from tests.engine.test_download_protocol_edges import (
    BODIES,
    EXPECTED,
    ONE,
    _calls,
    _Hub,
    _is_complete,
    _Response,
)


class _RecordingEvent(threading.Event):
    """A cancel event that records each wait instead of sleeping."""

    def __init__(self):
        super().__init__()
        self.waits = []

    def wait(self, timeout=None):
        self.waits.append(timeout)
        return self.is_set()


class _Clock:
    def __init__(self, now=100.0, step=0.0):
        self.now, self.step = now, step

    def __call__(self):
        self.now += self.step
        return self.now


def _downloader(tmp_path, hub, **kw):
    kw.setdefault("retries", 2)
    kw.setdefault("backoff_s", 0.5)
    return ModelDownloader(
        tmp_path / "m", Source("custom", "http://hub.invalid"), expected=EXPECTED, session=hub, **kw
    )


def test_the_waits_between_tries_double_and_none_follows_the_last_try(tmp_path):
    event = _RecordingEvent()
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [503] * 4
    with pytest.raises(DownloadError, match="kept failing"):
        _downloader(tmp_path, hub, retries=3, cancel_event=event).run()
    assert event.waits == [0.5, 1.0, 2.0]  # three waits between four tries, none after the last
    event = _RecordingEvent()
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [503, 503, 503]
    with pytest.raises(DownloadError, match="kept failing"):
        _downloader(tmp_path / "b", hub, retries=2, cancel_event=event).run()
    assert event.waits == [0.5, 1.0]


def test_a_clean_download_never_waits_and_a_broken_transfer_waits_once(tmp_path):
    event = _RecordingEvent()
    _downloader(tmp_path, _Hub(), cancel_event=event).run()
    assert event.waits == [] and _is_complete(tmp_path / "m")

    def dropped(headers, body):
        response = _Response(200, {"Content-Length": str(len(body))}, body)
        response.iter_content = lambda chunk: iter(())
        return response

    event = _RecordingEvent()
    hub = _Hub()
    hub.script[("GET", ONE)] = [dropped, dropped, dropped]
    with pytest.raises(DownloadError, match="kept breaking"):
        _downloader(tmp_path / "b", hub, cancel_event=event).run()
    assert event.waits == [0.5, 1.0]


def test_the_default_wait_is_one_second_and_a_given_cancel_event_is_the_one_used(tmp_path):
    event = threading.Event()
    downloader = ModelDownloader(
        tmp_path,
        Source("custom", "http://hub.invalid"),
        expected=EXPECTED,
        session=_Hub(),
        cancel_event=event,
    )
    assert (
        downloader.backoff_s == download.BACKOFF_S == 1.0 and downloader.retries == download.RETRIES
    )
    event.set()
    with pytest.raises(download.DownloadCancelled):
        downloader.run()


def _reports(monkeypatch, clock, downloader):
    monkeypatch.setattr(download.time, "monotonic", clock)
    seen = []
    downloader.on_progress = lambda p: seen.append(
        (p.message, p.done_bytes, p.speed_bps, {f.relpath: f.state for f in p.files})
    )
    return seen


def test_progress_reports_are_at_most_ten_a_second_unless_forced(tmp_path, monkeypatch):
    # 0.1 - 0.0 is exactly 0.1 in binary floating point; most other such pairs are not.
    clock = _Clock(now=0.1)
    downloader = _downloader(tmp_path, _Hub())
    seen = _reports(monkeypatch, clock, downloader)
    downloader._report()
    assert len(seen) == 1  # the first report, exactly 0.1 s after "the last" at 0
    clock.now = 0.15
    downloader._report()
    assert len(seen) == 1  # 0.05 s later: dropped
    downloader._report(force=True)
    assert len(seen) == 2
    clock.now = 0.2
    downloader._report()
    assert len(seen) == 2
    clock.now = 0.3
    downloader._report()
    assert len(seen) == 3  # 0.15 s after the last one


def test_the_speed_is_the_bytes_of_the_last_three_seconds_over_their_time(tmp_path, monkeypatch):
    clock = _Clock(now=10.0)
    downloader = _downloader(tmp_path, _Hub())
    seen = _reports(monkeypatch, clock, downloader)
    item = downloader.progress.files[0]
    downloader._report()
    assert seen[-1][2] == 0.0  # one point: no speed yet
    for now, done in ((11.0, 1000), (12.0, 3000), (13.0, 6000)):
        clock.now, item.done = now, done
        downloader._report()
    # At 13.0 the point at 10.0 is exactly 3 s old and leaves the window: (6000 - 1000) / 2.
    assert seen[-1][2] == pytest.approx(2500.0)
    clock.now, item.done = 15.5, 8000
    downloader._report()  # the window is 13.0 .. 15.5 (12.0 is 3.5 s old)
    assert seen[-1][2] == pytest.approx((8000 - 6000) / 2.5)


def test_a_download_reports_each_files_states_and_ends_with_a_forced_report(tmp_path, monkeypatch):
    # The clock never moves, so only forced reports go out: the ones a user must see.
    downloader = _downloader(tmp_path, _Hub())
    seen = _reports(monkeypatch, _Clock(now=50.0), downloader)
    downloader.run()
    assert seen[0][0].startswith("Asking hub.invalid for 9 file(s)")
    for rel in MODEL_FILES:
        states = [s[3][rel] for s in seen]
        assert FileState.VERIFYING in states and states[-1] == FileState.OK
        assert states.index(FileState.VERIFYING) < states.index(FileState.OK)
    assert seen[-1][0] == "All model files are present and verified."
    assert seen[-1][1] == sum(len(b) for b in BODIES.values())


def test_a_file_is_shown_downloading_while_its_bytes_arrive(tmp_path, monkeypatch):
    downloader = _downloader(tmp_path, _Hub())
    seen = _reports(monkeypatch, _Clock(now=50.0, step=1.0), downloader)
    downloader.run()
    for rel in MODEL_FILES:
        assert FileState.DOWNLOADING in [s[3][rel] for s in seen]


def test_after_a_checksum_mismatch_the_files_progress_starts_again_from_zero(tmp_path):
    hub = _Hub()
    hub.script[("GET", ONE)] = [lambda h, body: _Response(200, {}, body[::-1]), 404]
    downloader = _downloader(tmp_path, hub)
    with pytest.raises(DownloadError, match="HTTP 404"):
        downloader.run()
    item = next(f for f in downloader.progress.files if f.relpath == ONE)
    assert item.done == 0 and item.sha256_ok is False


@pytest.mark.parametrize(
    "status, words", [(400, "refused DVAE"), (405, "refused"), (410, "refused")]
)
def test_other_client_errors_are_a_refusal_not_a_missing_file(tmp_path, status, words):
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [status]
    with pytest.raises(DownloadError) as err:
        _downloader(tmp_path, hub).run()
    assert f"(HTTP {status})" in str(err.value) and "refused" in str(err.value)
    assert "is not on" not in str(err.value)
    assert len(_calls(hub, "HEAD")) == 1


def test_one_byte_past_the_announced_size_is_refused_at_once(tmp_path):
    hub = _Hub()
    hub.script[("GET", ONE)] = [
        lambda h, body: _Response(200, {"Content-Length": str(len(body))}, body + b"!")
    ]
    with pytest.raises(DownloadError, match="sent more than the"):
        _downloader(tmp_path, hub).run()
    assert not (tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)).exists()


def test_a_server_that_stalls_mid_file_is_named_with_the_file(tmp_path):
    def stalls(headers, body):
        response = _Response(200, {"Content-Length": str(len(body))}, body)
        blocks = response.iter_content

        def then_stall(chunk):
            yield next(blocks(chunk))
            raise requests.exceptions.ConnectionError(
                requests.packages.urllib3.exceptions.ReadTimeoutError(None, "/", "read timed out")
            )

        response.iter_content = then_stall
        return response

    hub = _Hub()
    hub.script[("GET", ONE)] = [stalls]
    with pytest.raises(DownloadError) as err:
        _downloader(tmp_path, hub).run()
    assert "sent nothing for 30 s while sending asset/DVAE.safetensors" in str(err.value)


def test_exactly_enough_space_is_enough_when_sizes_are_unknown_or_a_file_is_complete(
    tmp_path, monkeypatch
):
    # No size in any HEAD: unknown sizes count as nothing still to come; a complete partial file
    # of a known size counts as nothing either. So the margin alone must be free.
    hub = _Hub(head=lambda body: {})
    part = tmp_path / "m" / PARTIAL_DIR / (ONE + PART_SUFFIX)
    part.parent.mkdir(parents=True)
    part.write_bytes(BODIES[ONE])
    asked = []
    monkeypatch.setattr(
        download.shutil,
        "disk_usage",
        lambda p: asked.append(p) or type("U", (), {"free": download.DISK_MARGIN})(),
    )
    _downloader(tmp_path, hub).run()
    assert _is_complete(tmp_path / "m") and asked == [tmp_path / "m"]


def test_a_folder_downloaded_once_is_not_hashed_again_on_the_next_run(model_copy, monkeypatch):
    # The tiny model's own checksums are the store's expectations, so what one run verified is
    # remembered and the next run trusts the unchanged files without reading them.
    expected = ModelStore(model_copy).expected_sha256()
    hashed = []
    real = download.file_sha256
    monkeypatch.setattr(download, "file_sha256", lambda p: hashed.append(p.name) or real(p))

    def run():
        return ModelDownloader(
            model_copy,
            Source("custom", "http://hub.invalid"),
            expected=expected,
            session=_Hub(),
            backoff_s=0,
        ).run()

    assert all(f.state == FileState.PRESENT for f in run().files)
    assert len(hashed) == len(MODEL_FILES)
    hashed.clear()
    assert all(f.state == FileState.PRESENT and f.sha256_ok for f in run().files)
    assert hashed == []


def test_only_the_checksum_a_file_was_verified_against_vouches_for_it(model_copy):
    store = ModelStore(model_copy)
    expected = store.expected_sha256()
    rel = "asset/Embed.safetensors"
    store.remember_verified(rel, "0" * 64)  # not this model's checksum: ignored
    assert not store.is_known_good(rel, "0" * 64)
    store.remember_verified(rel, expected[rel])
    assert store.is_known_good(rel, expected[rel])
    assert not store.is_known_good(rel, "0" * 64)
    assert not ModelStore(model_copy.parent / "elsewhere").is_known_good(rel, expected[rel])
    (model_copy / rel).unlink()
    store.remember_verified(rel, expected[rel])  # a missing file is not recorded
    assert not store.is_known_good(rel, expected[rel])


def test_a_connection_error_that_escapes_a_step_is_said_in_words(tmp_path):
    class _Headers(dict):  # truthy, so _Response keeps it
        def get(self, *a):
            raise requests.ConnectionError("Connection refused")

    hub = _Hub()
    hub.script[("HEAD", ONE)] = [lambda h, body: _Response(200, _Headers(x=1))]
    with pytest.raises(DownloadError) as err:
        _downloader(tmp_path, hub).run()
    assert str(err.value).startswith("Could not connect to hub.invalid")


def test_a_silent_answer_to_the_size_question_names_the_file(tmp_path):
    hub = _Hub()
    hub.script[("HEAD", ONE)] = [requests.ReadTimeout("slow")]
    with pytest.raises(DownloadError) as err:
        _downloader(tmp_path, hub).run()
    assert f"while sending {ONE}" in str(err.value)


def test_the_size_question_follows_redirects(tmp_path):
    # Hugging Face answers a HEAD for a large (LFS) file with a redirect to its storage; requests
    # follows redirects for HEAD only when asked.
    seen = []

    class _Recording(_Hub):
        def request(self, method, url, **kwargs):
            seen.append((method, kwargs.get("allow_redirects")))
            return super().request(method, url, **kwargs)

    _downloader(tmp_path, _Recording()).run()
    assert {redirects for method, redirects in seen if method == "HEAD"} == {True}
