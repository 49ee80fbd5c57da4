"""A hostile server on 127.0.0.1: an endless body and a silent connection end in a sentence,
and never more than the announced size reaches the disk."""

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from app.core.errors import DownloadError
from app.model.download import ModelDownloader
from app.model.files import MODEL_FILES
from app.model.sources import Source

EXPECTED = dict.fromkeys(MODEL_FILES, "0" * 64)


class Endless(BaseHTTPRequestHandler):
    """HEAD announces 1,000 bytes; GET sends without a length and without end."""

    sent = 0

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()

    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        block = b"x" * 65536
        try:
            for _ in range(2000):  # up to 128 MB if nobody stops reading
                self.wfile.write(block)
                type(self).sent += len(block)
        except OSError:
            pass


class NoLength(Endless):
    """Says no size anywhere and sends without end."""

    def do_HEAD(self):
        self.send_response(200)
        self.end_headers()


@pytest.fixture
def serve():
    servers = []

    def start(handler):
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _disk_bytes(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def test_an_endless_body_stops_at_the_announced_size(tmp_path, serve):
    url = serve(Endless)
    job = ModelDownloader(
        tmp_path / "m", Source("custom", url), expected=EXPECTED, backoff_s=0.01, timeout_s=5
    )
    with pytest.raises(DownloadError, match="sent more than the 1,000 bytes"):
        job.run()
    assert _disk_bytes(tmp_path / "m") <= 1000


def test_without_any_size_the_largest_model_file_bounds_the_file(tmp_path, serve, monkeypatch):
    import app.model.download as download

    monkeypatch.setattr(download, "MAX_UNKNOWN_FILE_BYTES", 5000)
    url = serve(NoLength)
    job = ModelDownloader(
        tmp_path / "m", Source("custom", url), expected=EXPECTED, backoff_s=0.01, timeout_s=5
    )
    with pytest.raises(DownloadError, match="5,000 bytes"):
        job.run()
    assert _disk_bytes(tmp_path / "m") <= 5000


def test_a_silent_server_ends_the_try_with_a_sentence(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts connections, never answers
    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        job = ModelDownloader(
            tmp_path / "m",
            Source("custom", url),
            expected=EXPECTED,
            retries=4,
            backoff_s=0.01,
            timeout_s=0.5,
        )
        with pytest.raises(DownloadError, match=r"sent nothing for 0\.5 s") as err:
            job.run()
        assert "127.0.0.1" in str(err.value) and "\n" not in str(err.value)
    finally:
        listener.close()


def test_a_model_folder_on_a_file_or_read_only_is_a_sentence(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    job = ModelDownloader(
        blocker / "m", Source("custom", "http://127.0.0.1:9"), expected=EXPECTED, retries=0
    )
    with pytest.raises(DownloadError, match="cannot be written"):
        job.run()
    assert blocker.read_text() == "not a folder"


def test_importing_a_model_onto_a_file_is_a_sentence(tiny_model, tmp_path):
    from app.core.errors import OutputError
    from app.model.importer import import_model

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(OutputError, match="cannot be written"):
        import_model(tiny_model, blocker / "m")
    assert blocker.read_text() == "not a folder"


def test_removing_a_model_that_cannot_be_deleted_is_a_sentence(model_copy, monkeypatch):
    from pathlib import Path

    from app.core.errors import OutputError
    from app.model.importer import remove_model

    def refuse(self, missing_ok=False):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "unlink", refuse)
    with pytest.raises(OutputError, match="could not be removed"):
        remove_model(model_copy)
