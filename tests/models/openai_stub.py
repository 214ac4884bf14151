"""A local stand-in for an OpenAI-compatible chat server, for what does not depend on a model:
streaming, broken or oversized events, errors, and resuming a killed evaluation.

Serves 127.0.0.1 only. Each request gets the next queued reply (the last one repeats), streamed
a few characters per event; `raw` sends bytes as they are instead. Records every request body.
With `one_at_a_time` it serves as llama-cpp-python's server does by default: one request at a
time, ending the reply it streams (`[DONE]`, no finish reason) when another request waits.
Run as a script (`python tests/models/openai_stub.py PORT REPLY DELAY_S`) for subprocess tests.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class StubState:
    replies: list[str]
    delay_s: float = 0.0  # before each event
    raw: bytes | None = None  # sent as the whole response body instead of events
    status: int = 200
    one_at_a_time: bool = False
    bodies: list[dict[str, Any]] = field(default_factory=list)
    served: int = 0
    waiting: int = 0  # requests waiting for their turn (one_at_a_time)
    turn: threading.Lock = field(default_factory=threading.Lock)
    counting: threading.Lock = field(default_factory=threading.Lock)


def _handler(state: StubState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.bodies.append(body)
            reply = state.replies[min(state.served, len(state.replies) - 1)]
            state.served += 1
            if state.status != 200:
                self.send_error(state.status, "stub refuses")
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            if state.raw is not None:
                self.wfile.write(state.raw)
                return
            if state.one_at_a_time:
                with state.counting:
                    state.waiting += 1
                with state.turn:
                    with state.counting:
                        state.waiting -= 1
                    self._stream(reply)
            else:
                self._stream(reply)

        def _stream(self, reply: str) -> None:
            try:
                for start in range(0, len(reply), 4):
                    time.sleep(state.delay_s)
                    event = {"choices": [{"index": 0, "delta": {"content": reply[start : start + 4]}}]}
                    self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
                    self.wfile.flush()
                    if state.one_at_a_time and state.waiting:
                        self.wfile.write(b"data: [DONE]\n\n")
                        return
                usage = {"prompt_tokens": 11, "completion_tokens": len(reply.split())}
                final = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage}
                self.wfile.write(b"data: " + json.dumps(final).encode() + b"\n\ndata: [DONE]\n\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client hung up (cancelled)

    return Handler


@contextmanager
def serve(state: StubState) -> Iterator[str]:
    """Serve `state` on a free port; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    port, reply, delay = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    ThreadingHTTPServer(("127.0.0.1", port), _handler(StubState([reply], delay_s=delay))).serve_forever()
