"""`RemoteModel` against a stub server (protocol edge cases) and against llama-cpp-python's own
OpenAI-compatible server running the embedded model on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.reasoning.grammars import ONE_PYTHON_BLOCK
from models.embedded import ensure_embedded
from models.remote import RemoteModel, privacy_warning
from models.types import (
    Generation,
    GenerationRequest,
    ModelError,
    SequenceChunk,
    SequenceDone,
    complete,
    generate_batch,
)
from tests.models.openai_stub import StubState, serve

ROOT = Path(__file__).resolve().parents[2]


def test_streams_text_and_reads_usage() -> None:
    state = StubState(["```python\nprint(2)\n```"])
    with serve(state) as url:
        chunks: list[str] = []
        result = complete(RemoteModel(url), GenerationRequest.chat("hi", max_tokens=20, seed=3), chunks.append)
    assert result.text == "```python\nprint(2)\n```" == "".join(chunks)
    assert result.prompt_tokens == 11 and result.finish_reason == "stop"
    body = state.bodies[0]
    assert body["messages"] == [{"role": "user", "content": "hi"}]
    assert body["stream"] is True and body["max_tokens"] == 20 and body["seed"] == 3


def test_a_batch_goes_out_concurrently_and_each_sequence_stops_at_its_code_block() -> None:
    block = "```python\nprint(2)\n```\n"
    state = StubState([block + "and then a long explanation " * 3], delay_s=0.1)
    requests = [
        GenerationRequest.chat("hi", max_tokens=50, seed=seed, stop_after_code_block=True) for seed in (1, 2, 3)
    ]
    texts: dict[int, str] = {0: "", 1: "", 2: ""}
    ended: dict[int, Generation] = {}
    with serve(state) as url:
        started = time.perf_counter()
        for event in generate_batch(RemoteModel(url), requests):
            if isinstance(event, SequenceChunk):
                texts[event.index] += event.text
            elif isinstance(event, SequenceDone):
                ended[event.index] = event.generation
        elapsed = time.perf_counter() - started
    assert sorted(ended) == [0, 1, 2] and sorted(body["seed"] for body in state.bodies) == [1, 2, 3]
    for index, generation in ended.items():
        assert generation.text == texts[index] and generation.text.startswith(block)
        assert len(generation.text) < len(block) + 4  # stopped reading at the closing fence
    one_stream = (len(block) // 4) * 0.1  # the stub streams 4 characters per 0.1 s
    assert elapsed < 2 * one_stream, "the three requests did not run at the same time"


def test_a_server_that_cuts_a_reply_when_another_arrives_is_asked_one_request_at_a_time() -> None:
    reply = "```python\nprint(2)\n```\n"
    state = StubState([reply], delay_s=0.05, one_at_a_time=True)
    requests = [GenerationRequest.chat("hi", max_tokens=50, seed=seed) for seed in (1, 2, 3)]
    with serve(state) as url:
        model = RemoteModel(url)
        assert model.capabilities.batch > 1
        first = [event for event in generate_batch(model, requests) if isinstance(event, SequenceDone)]
        cut_short = state.served - 3
        second = [event for event in generate_batch(model, requests) if isinstance(event, SequenceDone)]
    assert cut_short >= 1, "the stub did not cut a reply short"
    for ended in (first, second):
        assert sorted(done.index for done in ended) == [0, 1, 2]
        assert all(done.generation.text == reply and done.generation.finish_reason == "stop" for done in ended)
    assert state.served == 3 + cut_short + 3  # the second batch went one request after another
    assert model.capabilities.batch == 1


def test_grammar_goes_in_the_request_and_text_bias_is_refused() -> None:
    state = StubState(["x"])
    with serve(state) as url:
        model = RemoteModel(url + "/v1")
        complete(model, GenerationRequest.chat("hi", grammar=ONE_PYTHON_BLOCK))
        with pytest.raises(ModelError, match="cannot bias tokens"):
            complete(model, GenerationRequest.chat("hi", token_bias={"#": -2.0}))
    assert state.bodies[0]["grammar"] == ONE_PYTHON_BLOCK


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"data: {not json\n\n", "not JSON"),
        (b"data: " + b"x" * 1_100_000 + b"\n", "longer than 1 MB"),
        (b'data: {"error": {"message": "model exploded"}}\n\n', "model exploded"),
    ],
)
def test_bad_streams_fail_cleanly(raw: bytes, message: str) -> None:
    with serve(StubState([""], raw=raw)) as url, pytest.raises(ModelError, match=message):
        complete(RemoteModel(url), GenerationRequest.chat("hi"))


def test_http_errors_and_unreachable_servers_are_model_errors() -> None:
    with serve(StubState([""], status=503)) as url, pytest.raises(ModelError, match="HTTP 503"):
        complete(RemoteModel(url), GenerationRequest.chat("hi"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelError, match="cannot reach"):
        complete(RemoteModel(f"127.0.0.1:{port}", timeout_s=5), GenerationRequest.chat("hi"))


def test_cancel_stops_a_stream() -> None:
    with serve(StubState(["y" * 400], delay_s=0.02)) as url:
        model = RemoteModel(url)
        threading.Timer(0.2, model.cancel).start()
        result = complete(model, GenerationRequest.chat("hi"))
    assert result.finish_reason == "cancelled"
    assert len(result.text) < 400


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://127.0.0.1:8080", True),
        ("localhost:11434", True),
        ("http://[::1]:8000/v1", True),
        ("http://192.168.1.20:8000", False),
        ("https://api.example.com/v1", False),
    ],
)
def test_privacy_warning_for_other_machines(url: str, local: bool) -> None:
    assert (privacy_warning(url) is None) == local


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's OpenAI-compatible server with the embedded model, on 127.0.0.1.
    Its log goes to a file: it writes a lot, and a full pipe would stall it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(ensure_embedded()), "--host", "127.0.0.1"]
    command += ["--port", str(port), "--n_ctx", "2048", "--model_alias", "embedded"]
    log = tmp_path_factory.mktemp("llama-server") / "log.txt"
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as response:
                    json.load(response)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"llama_cpp.server did not start: {log.read_text(errors='replace')[-2000:]}"
                    ) from None
                time.sleep(0.5)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_real_server_answers_under_a_grammar(llama_server: str) -> None:
    request = GenerationRequest.chat(
        "Say hello, then write Python that prints 2 + 3.", max_tokens=60, grammar=ONE_PYTHON_BLOCK
    )
    result = complete(RemoteModel(llama_server, model="embedded"), request)
    assert result.text.startswith("```python\n")
    assert result.completion_tokens > 0


def test_the_real_server_answers_every_request_of_a_batch(llama_server: str) -> None:
    """llama-cpp-python's server ends the reply it streams when another request arrives."""
    requests = [GenerationRequest.chat(f"Count from {n} to {n + 5}.", max_tokens=8) for n in (1, 10, 20)]
    ended = [event for event in generate_batch(RemoteModel(llama_server), requests) if isinstance(event, SequenceDone)]
    assert sorted(done.index for done in ended) == [0, 1, 2]
    assert all(done.generation.completion_tokens > 0 and done.generation.text.strip() for done in ended)


def test_ask_through_the_backend_end_to_end(llama_server: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "ask", "--backend", llama_server, "--json", "What is 17 + 25?"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
    )  # fmt: skip
    result = json.loads(done.stdout)
    assert result["answer"] == "42", done.stderr
    assert result["status"] == "answered"
    assert "warning" not in done.stderr  # 127.0.0.1 is this machine
