"""A local stand-in for the Hugging Face hub's file endpoints (HEAD/GET …/resolve/…, Range).

Serves in-memory files on 127.0.0.1 only; can cut the first transfer of a file half way to
imitate a dropped connection. Records every request's method, path and Range header.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class HubState:
    files: dict[str, bytes]  # "org/repo/filename" -> content
    cut_first_get_at: int | None = None  # bytes sent before dropping the first GET
    etag_override: str | None = None
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)
    gets: int = 0


def _handler(state: HubState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: object) -> None:
            pass

        def _lookup(self) -> bytes | None:
            parts = self.path.split("?")[0].strip("/").split("/")
            if len(parts) < 5 or parts[2] != "resolve":
                return None
            return state.files.get("/".join([parts[0], parts[1], *parts[4:]]))

        def _headers(self, content: bytes, status: int, length: int, start: int = 0) -> None:
            self.send_response(status)
            self.send_header("X-Repo-Commit", "1" * 40)
            etag = state.etag_override or hashlib.sha256(content).hexdigest()
            self.send_header("ETag", f'"{etag}"')
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(length))
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{len(content) - 1}/{len(content)}")
            self.end_headers()

        def do_HEAD(self) -> None:
            state.requests.append(("HEAD", self.path, None))
            content = self._lookup()
            if content is None:
                self.send_error(404)
                return
            self._headers(content, 200, len(content))

        def do_GET(self) -> None:
            byte_range = self.headers.get("Range")
            state.requests.append(("GET", self.path, byte_range))
            content = self._lookup()
            if content is None:
                self.send_error(404)
                return
            start = int(byte_range.split("=")[1].split("-")[0]) if byte_range else 0
            body = content[start:]
            self._headers(content, 206 if start else 200, len(body), start)
            state.gets += 1
            if state.gets == 1 and state.cut_first_get_at is not None:
                self.wfile.write(body[: state.cut_first_get_at])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

    return Handler


@contextmanager
def serve(state: HubState) -> Iterator[str]:
    """Run the stand-in hub; yields its endpoint URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
