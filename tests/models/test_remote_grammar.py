"""Whether a server takes a GBNF grammar is asked once, from `/props` (llama.cpp's servers answer
it); a server that does not, or is not there, is taken as one without grammars."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from models.remote import RemoteModel


class _Props(BaseHTTPRequestHandler):
    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Props.asked.append(self.path)
        if self.path == "/props":
            body = json.dumps({"default_generation_settings": {}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def llama_like() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Props)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_llama_cpp_server_takes_grammars_and_is_asked_once(llama_like: str) -> None:
    _Props.asked.clear()
    model = RemoteModel(llama_like)
    assert model.capabilities.grammar and model.capabilities.grammar
    assert _Props.asked == ["/props"]


def test_no_server_means_no_grammar() -> None:
    assert not RemoteModel("http://127.0.0.1:9").capabilities.grammar  # nothing listens on the discard port
