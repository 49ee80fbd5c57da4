"""A local stand-in for the Hugging Face file server, on 127.0.0.1 only, for tests.

It answers what our downloader (and huggingface_hub's URL scheme) asks:
HEAD/GET /{repo}/resolve/{revision}/{path}, with Range requests. Faults can be injected:
a connection dropped after N bytes, or corrupted bytes, each once per file; or a server
that ignores Range requests and always sends the whole file (`ignore_range`).
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class FakeHub:
    def __init__(self, model_dir, repo: str = "2Noise/ChatTTS"):
        self.model_dir = Path(model_dir)
        self.repo = repo
        self.drop_after: dict[str, int] = {}
        self.corrupt_once: set[str] = set()
        self.ignore_range = False
        self.log: list[tuple[str, str, str | None]] = []  # method, path, Range header
        self.bytes_sent = 0
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _file(self):
                prefix = f"/{hub.repo}/resolve/"
                if not self.path.startswith(prefix):
                    return None, None
                rel = self.path[len(prefix) :].split("/", 1)[1]
                path = hub.model_dir / rel
                return rel, path if path.is_file() else None

            def do_HEAD(self):
                rel, path = self._file()
                hub.log.append(("HEAD", rel, None))
                if path is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(path.stat().st_size))
                self.send_header("ETag", f'"{rel}"')
                self.end_headers()

            def do_GET(self):
                rel, path = self._file()
                range_header = self.headers.get("Range")
                hub.log.append(("GET", rel, range_header))
                if path is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = path.read_bytes()
                start = 0
                if range_header and range_header.startswith("bytes=") and not hub.ignore_range:
                    start = int(range_header[6:].split("-")[0])
                body = data[start:]
                if rel in hub.corrupt_once:
                    hub.corrupt_once.discard(rel)
                    body = bytes(b ^ 0xFF for b in body[:16]) + body[16:]
                self.send_response(206 if start else 200)
                self.send_header("Content-Length", str(len(body)))
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                cut = hub.drop_after.pop(rel, None)
                if cut is not None and cut < len(body):
                    self.wfile.write(body[:cut])
                    hub.bytes_sent += cut
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)  # the line goes dead mid-file
                    return
                self.wfile.write(body)
                hub.bytes_sent += len(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
