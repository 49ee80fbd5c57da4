"""Downloading the model: per-file and total progress, resume, retries, checksums, cancel.

Files stream into `<model>/.partial/` and survive a crash or restart; a later run resumes
them with an HTTP Range request. A finished file is checked against its sha256 before it is
renamed into place, so a failed or cancelled download never replaces or damages a good
model. A file that fails its checksum is moved to `<model>/.quarantine/` and fetched again.
Transfers use `requests` rather than huggingface_hub's downloader, because that one cannot
be cancelled mid-file or report progress except through tqdm. What the progress reports hold is
download_progress.py's; what a failed connection means in words, download_failures.py's.
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from app.core import DownloadCancelled, DownloadError
from app.i18n import _, join_sentences
from app.model.download_failures import choices_after, connection_problem, is_timeout
from app.model.download_progress import DownloadProgress, FileProgress, FileState
from app.model.files import MODEL_FILES, PART_SUFFIX, PARTIAL_DIR, QUARANTINE_DIR
from app.model.sources import Source
from app.model.store import ModelStore, chattts_sha256_map, file_sha256, sha256_map_key

log = logging.getLogger("chattts_studio.download")

CHUNK = 1 << 16
# When neither the HEAD nor the GET says how large a file is, no model file is larger than this.
MAX_UNKNOWN_FILE_BYTES = 4 * 1024**3
DISK_MARGIN = 200_000_000
# A failed request or a broken transfer is tried again this many times, after 1, 2, 4, 8 s.
RETRIES = 4
BACKOFF_S = 1.0


def official_sha256() -> dict[str, str]:
    table = chattts_sha256_map()
    return {rel: table[sha256_map_key(rel)] for rel in MODEL_FILES}


class ModelDownloader:
    def __init__(
        self,
        target: os.PathLike | str,
        source: Source,
        expected: dict[str, str] | None = None,
        on_progress: Callable[[DownloadProgress], None] | None = None,
        session=None,
        retries: int | None = None,
        backoff_s: float | None = None,
        timeout_s: float = 30.0,
        cancel_event: threading.Event | None = None,
    ):
        """`cancel_event`: the event cancel() sets (one can stop several jobs); every wait ends on it."""
        self.target = Path(target)
        self.store = ModelStore(self.target)
        self.source = source
        self.expected = expected or official_sha256()
        self.on_progress = on_progress
        self.retries = RETRIES if retries is None else retries
        self.backoff_s = BACKOFF_S if backoff_s is None else backoff_s
        self.timeout_s = timeout_s
        self._session = session
        self._cancel = cancel_event if cancel_event is not None else threading.Event()
        self.progress = DownloadProgress([FileProgress(rel) for rel in MODEL_FILES])
        self._last_report = 0.0
        self._window: list[tuple[float, int]] = []

    # -- control ---------------------------------------------------------------------
    def cancel(self) -> None:
        self._cancel.set()

    def _check_cancel(self) -> None:
        if self._cancel.is_set():
            raise DownloadCancelled(
                _(
                    "The download was cancelled; nothing was replaced, and it "
                    "will resume where it stopped next time."
                )
            )

    def _back_off(self, attempt: int) -> None:
        """Wait before retry `attempt + 1` (1 s, 2 s, 4 s, 8 s...); Cancel ends the wait at once."""
        self._cancel.wait(self.backoff_s * (2**attempt))
        self._check_cancel()

    def _report(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.on_progress is None or (not force and now - self._last_report < 0.1):
            return
        self._last_report = now
        self._window = [(t, b) for t, b in self._window if now - t < 3.0] + [
            (now, self.progress.done_bytes)
        ]
        (t0, b0), (t1, b1) = self._window[0], self._window[-1]
        self.progress.speed_bps = (b1 - b0) / (t1 - t0) if t1 > t0 else 0.0
        self.on_progress(self.progress)

    @property
    def session(self):
        if self._session is None:
            import requests

            self._session = requests.Session()
        return self._session

    # -- steps -------------------------------------------------------------------------
    def _partial(self, rel: str) -> Path:
        return self.target / PARTIAL_DIR / (rel + PART_SUFFIX)

    def _good_already(self, rel: str) -> bool:
        path, sha = self.target / rel, self.expected.get(rel)
        if sha is None:  # not a file of the model: never good
            return False
        if self.store.is_known_good(rel, sha):
            return True
        if path.is_file() and file_sha256(path) == sha:
            self.store.remember_verified(rel, sha)
            return True
        return False

    def _size_of(self, rel: str) -> int | None:
        response = self._request("HEAD", rel, allow_redirects=True)
        size = response.headers.get("X-Linked-Size") or response.headers.get("Content-Length")
        return int(size) if size and size.isdigit() else None

    def _request(self, method: str, rel: str, **kwargs):
        import requests

        url = self.source.file_url(rel)
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            self._check_cancel()
            try:
                response = self.session.request(method, url, timeout=self.timeout_s, **kwargs)
            except requests.RequestException as exc:
                if is_timeout(exc):
                    raise self._silent(rel) from None
                last = exc
            else:
                if response.status_code == 404:
                    raise self._error(
                        _("{file} is not on {host} (HTTP 404).").format(
                            file=rel, host=self.source.host
                        )
                    )
                if response.status_code < 500 and response.status_code != 429:
                    if response.status_code >= 400:
                        raise self._error(
                            _("{host} refused {file} (HTTP {status}).").format(
                                host=self.source.host, file=rel, status=response.status_code
                            )
                        )
                    return response
                last = DownloadError(f"HTTP {response.status_code}")
                response.close()
            if attempt < self.retries:
                self._back_off(attempt)
        if isinstance(last, DownloadError):
            raise self._error(
                _("{host} kept failing ({reason}).").format(host=self.source.host, reason=last)
            )
        assert last is not None  # each attempt (at least one) failed and set it
        raise self._error(connection_problem(self.source.host, last))

    def _choices(self) -> str:
        return choices_after(self.source.name)

    def _error(self, problem: str) -> DownloadError:
        """`problem` followed by the other sources to try."""
        return DownloadError(join_sentences([problem, self._choices()]))

    def _silent(self, rel: str) -> DownloadError:
        return self._error(
            _(
                "{host} sent nothing for {seconds} s while sending {file}, so the download stopped; "
                "it resumes where it stopped next time."
            ).format(host=self.source.host, seconds=f"{self.timeout_s:g}", file=rel)
        )

    def _limit(self, item: FileProgress, response, have: int) -> int:
        """The most bytes this file may have: the announced size, never what the body turns out to be."""
        if item.total is not None:
            return item.total
        length = response.headers.get("Content-Length", "")
        if length.isdigit():
            return (have if response.status_code == 206 else 0) + int(length)
        return MAX_UNKNOWN_FILE_BYTES

    def _fetch(self, item: FileProgress) -> None:
        """Download one file into .partial, resuming; retry the transfer on dropped connections."""
        import requests

        part = self._partial(item.relpath)
        part.parent.mkdir(parents=True, exist_ok=True)
        for attempt in range(self.retries + 1):
            have = part.stat().st_size if part.exists() else 0
            if item.total is not None and have >= item.total:
                return
            headers = {"Range": f"bytes={have}-"} if have else {}
            response = self._request("GET", item.relpath, headers=headers, stream=True)
            if have and response.status_code != 206:
                have = 0  # the server ignored the range: start over
            item.done = have
            item.state = FileState.DOWNLOADING
            limit = self._limit(item, response, have)
            try:
                with open(part, "ab" if have else "wb") as f:
                    for block in response.iter_content(CHUNK):
                        self._check_cancel()
                        if item.done + len(block) > limit:
                            raise self._error(
                                _(
                                    "{host} sent more than the {limit} bytes of {file} it "
                                    "announced, so the download stopped."
                                ).format(
                                    host=self.source.host, limit=f"{limit:,}", file=item.relpath
                                )
                            )
                        f.write(block)
                        item.done += len(block)
                        self._report()
                if item.total is None or item.done >= item.total:
                    return
                raise requests.ConnectionError("connection closed early")
            except DownloadError:
                part.unlink(missing_ok=True)  # ours, in .partial: never more than announced stays
                raise
            except (requests.RequestException, OSError) as exc:
                if isinstance(exc, OSError) and not isinstance(exc, requests.RequestException):
                    raise DownloadError(
                        _(
                            "{file} could not be written ({reason}); free some space or choose "
                            "a model folder you can write to."
                        ).format(file=part, reason=exc.strerror or exc)
                    ) from None
                if is_timeout(exc):
                    raise self._silent(item.relpath) from None
                log.info("transfer of %s broke (%s); resuming", item.relpath, exc)
                if attempt < self.retries:
                    self._back_off(attempt)
            finally:
                response.close()
        raise self._error(
            _("The connection to {host} kept breaking while fetching {file}.").format(
                host=self.source.host, file=item.relpath
            )
        )

    def _quarantine(self, path: Path, rel: str) -> None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        dest = self.target / QUARANTINE_DIR / f"{rel}.{stamp}"
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, dest)
        log.warning("%s failed its checksum; kept as %s", rel, dest)

    def _check_disk(self, items: list[FileProgress]) -> None:
        need = sum(
            max(
                0,
                (i.total or 0)
                - (
                    self._partial(i.relpath).stat().st_size
                    if self._partial(i.relpath).exists()
                    else 0
                ),
            )
            for i in items
        )
        free = shutil.disk_usage(self.target).free  # _run made the folder first
        if need + DISK_MARGIN > free:
            raise DownloadError(
                join_sentences(
                    [
                        _(
                            "Not enough disk space: the model needs {need} GB more on {folder}, but only {free} GB is "
                            "free."
                        ).format(
                            need=f"{need / 1e9:.2f}", folder=self.target, free=f"{free / 1e9:.2f}"
                        ),
                        _("Free some space or choose a model folder on another drive."),
                    ]
                )
            )

    # -- the whole job --------------------------------------------------------------------
    def run(self) -> DownloadProgress:
        import requests

        try:
            return self._run()
        except OSError as exc:
            if isinstance(exc, requests.RequestException):
                raise self._error(connection_problem(self.source.host, exc)) from None
            raise DownloadError(
                _(
                    "The model folder {folder} cannot be written ({reason}); choose a folder you "
                    "can write to, on a disk with space."
                ).format(folder=self.target, reason=exc.strerror or exc)
            ) from None

    def _run(self) -> DownloadProgress:
        self.target.mkdir(parents=True, exist_ok=True)
        todo = []
        for item in self.progress.files:
            self._check_cancel()
            if self._good_already(item.relpath):
                item.state, item.sha256_ok = FileState.PRESENT, True
                item.total = item.done = (self.target / item.relpath).stat().st_size
            else:
                todo.append(item)
        self.progress.message = _("Asking {host} for {count} file(s)...").format(
            host=self.source.host, count=len(todo)
        )
        self._report(force=True)
        for item in todo:
            item.total = self._size_of(item.relpath)
        self._check_disk(todo)
        for item in todo:
            for round_ in range(2):  # a corrupted transfer is fetched once more
                self._fetch(item)
                item.state = FileState.VERIFYING
                self._report(force=True)
                part = self._partial(item.relpath)
                if file_sha256(part) == self.expected.get(item.relpath):
                    final = self.target / item.relpath
                    final.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(part, final)
                    self.store.remember_verified(item.relpath, self.expected[item.relpath])
                    item.state, item.sha256_ok = FileState.OK, True
                    break
                item.sha256_ok = False
                self._quarantine(part, item.relpath)
                item.done = 0
                if round_ == 1:
                    item.state = FileState.FAILED
                    raise self._error(
                        _(
                            "{file} from {host} does not match its checksum even after a second "
                            "download; the source may be damaged."
                        ).format(file=item.relpath, host=self.source.host)
                    )
            self._report(force=True)
        shutil.rmtree(self.target / PARTIAL_DIR, ignore_errors=True)
        self.progress.message = _("All model files are present and verified.")
        self._report(force=True)
        return self.progress
