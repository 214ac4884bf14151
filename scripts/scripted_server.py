"""A scripted OpenAI-compatible server for smoke tests on any platform: every completion is the same
short PAL program, streamed as server-sent events. Standard library only, so it runs wherever the
app does (the hosted CI matrix, a frozen build's check) without a model.

    python scripts/scripted_server.py [--port 8765]   # then: pal-studio ask --backend http://127.0.0.1:8765 ...
"""

from __future__ import annotations

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY = "```python\n# 3 boxes of 6 muffins sold out of 24\nans = 24 - 3 * 6\nprint(ans)\n```"


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = json.loads(self.rfile.read(min(length, 1 << 20)) or b"{}")
        chat = self.path.endswith("/chat/completions")
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for piece in (REPLY[i : i + 16] for i in range(0, len(REPLY), 16)):
            choice = {"index": 0, "delta": {"content": piece}} if chat else {"index": 0, "text": piece}
            self._event({"choices": [choice]})
        self._event({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": len(REPLY) // 4}})
        self.wfile.write(b"data: [DONE]\n\n")
        del request

    def _event(self, payload: dict[str, object]) -> None:
        self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")
        self.wfile.flush()

    def log_message(self, *_args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765)
    port = parser.parse_args().port
    with ThreadingHTTPServer(("127.0.0.1", port), _Handler) as server:
        print(f"scripted server on http://127.0.0.1:{port}", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
