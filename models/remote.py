"""`RemoteModel`: an OpenAI-compatible server (llama.cpp's, llama-cpp-python's, vLLM, Ollama,
LM Studio) instead of the in-process model, for users who outgrow one laptop.

Chat completions are streamed (server-sent events) with the standard library's HTTP client;
every line and reply is size-capped and parsed as JSON, nothing more. Several generations may
run at once (the evaluator sends concurrent requests); `cancel()` stops all that are in flight.
A server that serves one request at a time by ending the one it is streaming when another
arrives (llama-cpp-python's, by default) is noticed in the first batch, whose cut replies are
asked again one after another, as every later batch then is.
A GBNF `grammar` is passed in the request body, as llama.cpp's servers accept it; biasing tokens
by their text needs the tokenizer, which a server does not expose, so it is refused clearly.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import queue
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from models.fences import program_arrived
from models.parallel import MAX_SEQUENCES
from models.types import (
    BatchEvent,
    Capabilities,
    FinishReason,
    Generation,
    GenerationRequest,
    ModelError,
    SequenceChunk,
    SequenceDone,
)

MAX_LINE_BYTES = 1_000_000
MAX_REPLY_CHARS = 200_000
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def privacy_warning(url: str) -> str | None:
    """A warning when `url` is not on this machine (questions would leave it), else None."""
    host = urlsplit(url if "//" in url else f"http://{url}").hostname or ""
    if host in _LOCAL_NAMES:
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return f"{host or url} is not this machine: questions and programs will be sent there"


class RemoteModel:
    """A model behind an OpenAI-compatible HTTP API. Implements `models.types.LanguageModel`."""

    def __init__(self, url: str, *, model: str | None = None, api_key: str | None = None, timeout_s: float = 600.0):
        base = (url if "//" in url else f"http://{url}").rstrip("/")
        self.base_url = base if base.endswith("/v1") else f"{base}/v1"
        self.model, self.api_key, self.timeout_s = model, api_key, timeout_s
        self._ids = itertools.count(1)
        self._cancelled_below = 0  # generations with a smaller id were cancelled
        self._lock = threading.Lock()
        self._grammar: bool | None = None
        self._one_at_a_time = False  # the server cuts a reply short when another request arrives

    @property
    def name(self) -> str:
        return f"{self.model or 'model'} at {urlsplit(self.base_url).netloc}"

    @property
    def capabilities(self) -> Capabilities:
        """A server with parallel slots (llama-server -np, vLLM) decodes a batch together; a GBNF
        `grammar` only where it is llama.cpp's (it answers `/props`; vLLM, Ollama, LM Studio ignore
        or refuse one; asked once); no bias by token text (a server does not share its tokenizer)."""
        if self._grammar is None:
            self._grammar = self._answers_props()
        batch = 1 if self._one_at_a_time else MAX_SEQUENCES
        return Capabilities(batch=batch, grammar=self._grammar, token_bias=False)

    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def _answers_props(self) -> bool:
        url = self.base_url.removesuffix("/v1") + "/props"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=self._headers()), timeout=3) as response:
                return response.status == 200 and isinstance(json.loads(response.read(MAX_LINE_BYTES)), dict)
        except (OSError, ValueError):
            return False

    def cancel(self) -> None:
        with self._lock:
            self._cancelled_below = next(self._ids)

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
        """The requests sent concurrently, one thread each; events in the order they arrive.
        A sequence asked to stop once its program has arrived stops reading there (`generate`).
        Replies the server ended without a reason while it finished another of the batch were cut
        short by it: they are asked again one after another, after the batch."""
        cancels = self._cancelled_below  # a cancel from here on stops the re-asked ones too
        if self._one_at_a_time:
            yield from self._in_turn(enumerate(requests), cancels)
            return
        events: queue.Queue[BatchEvent | _Ended | Exception] = queue.Queue()

        def one(index: int, request: GenerationRequest) -> None:
            try:
                for item in self._stream(request):
                    events.put(SequenceChunk(index, item) if isinstance(item, str) else _Ended(index, *item))
            except Exception as exc:  # handed to the caller's thread
                events.put(exc)

        for index, request in enumerate(requests):
            threading.Thread(target=one, args=(index, request), daemon=True, name=f"remote-seq-{index}").start()
        unfinished: list[SequenceDone] = []
        finished_one = False
        for _ in requests:
            event = events.get()
            while isinstance(event, SequenceChunk):
                yield event
                event = events.get()
            if isinstance(event, Exception):
                self.cancel()
                raise event if isinstance(event, ModelError) else ModelError(f"{self.name}: {event}")
            assert isinstance(event, _Ended)
            finished_one = finished_one or event.finished
            if event.finished:
                yield SequenceDone(event.index, event.generation)
            else:  # decided once the others have ended: a server may never say why a reply ended
                unfinished.append(SequenceDone(event.index, event.generation))
        if finished_one and unfinished:
            self._one_at_a_time = True
            yield from self._in_turn(((done.index, requests[done.index]) for done in unfinished), cancels)
        else:
            yield from unfinished

    def _in_turn(self, requests: Iterable[tuple[int, GenerationRequest]], cancels: int) -> Iterator[BatchEvent]:
        """The requests (index, request) one after another; none once the batch was cancelled."""
        for index, request in requests:
            if self._cancelled_below != cancels:
                yield SequenceDone(index, Generation("", 0, 0, 0, 0.0, 0.0, "cancelled"))
                continue
            for item in self._stream(request):
                yield SequenceChunk(index, item) if isinstance(item, str) else SequenceDone(index, item[0])

    def close(self) -> None:
        self.cancel()

    def _is_cancelled(self, generation_id: int) -> bool:
        with self._lock:
            return generation_id < self._cancelled_below

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        for item in self._stream(request):
            yield item if isinstance(item, str) else item[0]

    def _stream(self, request: GenerationRequest) -> Iterator[str | tuple[Generation, bool]]:
        """The reply's text as it arrives, then its generation and whether it ended as a reply
        does (a finish reason sent, or stopped here) rather than cut off by the server."""
        if request.token_bias:
            raise ModelError(f"{self.name} cannot bias tokens by their text (a server does not share its tokenizer)")
        with self._lock:
            generation_id = next(self._ids)
        started = time.perf_counter()
        first: float | None = None
        parts: list[str] = []
        usage: dict[str, Any] = {}
        finish: FinishReason = "stop"
        finished = False
        chunks = 0
        with self._open(request) as response:
            for payload in _events(response):
                if self._is_cancelled(generation_id):
                    finish, finished = "cancelled", True
                    break
                usage = payload.get("usage") or usage
                for choice in payload.get("choices") or []:
                    text = _text_of(choice)
                    if text:
                        first = first or time.perf_counter()
                        chunks += 1
                        parts.append(text)
                        if sum(map(len, parts)) > MAX_REPLY_CHARS:
                            raise ModelError(f"{self.name} sent a reply longer than {MAX_REPLY_CHARS:,} characters")
                        yield text
                    reason = choice.get("finish_reason")
                    finished = finished or bool(reason)
                    if reason == "length":
                        finish = "length"
                if request.stop_after_code_block and program_arrived("".join(parts)):
                    finished = True
                    break  # the program has arrived: stop reading (the server stops when the stream closes)
        ended = time.perf_counter()
        first = first or ended
        generation = Generation(
            text="".join(parts),
            prompt_tokens=_count(usage.get("prompt_tokens")),
            cached_prompt_tokens=0,
            completion_tokens=_count(usage.get("completion_tokens")) or chunks,  # servers stream a token a chunk
            prompt_eval_s=first - started,
            decode_s=ended - first,
            finish_reason=finish,
        )
        yield generation, finished

    def _open(self, request: GenerationRequest) -> Any:
        body: dict[str, Any] = {
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
            "top_p": request.top_p,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if request.prompt is not None:
            endpoint, body["prompt"] = "completions", request.prompt + request.assistant_prefix
        else:
            endpoint = "chat/completions"
            body["messages"] = [{"role": m.role, "content": m.content} for m in request.messages]
            if request.assistant_prefix:  # a final assistant turn, which llama.cpp's and vLLM's servers continue
                body["messages"].append({"role": "assistant", "content": request.assistant_prefix})
        if self.model:
            body["model"] = self.model
        if request.seed is not None:
            body["seed"] = request.seed
        if request.stop:
            body["stop"] = list(request.stop)
        if request.grammar:
            body["grammar"] = request.grammar
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream", **self._headers()}
        http = urllib.request.Request(
            f"{self.base_url}/{endpoint}", data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        try:
            return urllib.request.urlopen(http, timeout=self.timeout_s)
        except urllib.error.HTTPError as exc:
            detail = exc.read(2000).decode("utf-8", errors="replace")
            raise ModelError(f"{self.name} refused the request (HTTP {exc.code}): {detail}") from exc
        except (urllib.error.URLError, OSError) as exc:
            raise ModelError(f"cannot reach the server at {self.base_url}: {exc}") from exc


@dataclass(frozen=True)
class _Ended:
    """A batch's sequence ended; `finished`: as a reply ends, not cut off by the server."""

    index: int
    generation: Generation
    finished: bool


def _events(response: Any) -> Iterator[dict[str, Any]]:
    """The JSON payloads of a server-sent event stream, until `[DONE]`."""
    while True:
        try:
            line = response.readline(MAX_LINE_BYTES + 1)
        except OSError as exc:
            raise ModelError(f"the server's stream broke off: {exc}") from exc
        if not line:
            return
        if len(line) > MAX_LINE_BYTES:
            raise ModelError("the server sent an event longer than 1 MB")
        line = line.strip()
        if not line.startswith(b"data:"):
            continue
        data = line[5:].strip()
        if data == b"[DONE]":
            return
        try:
            payload = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ModelError(f"the server sent an event that is not JSON: {data[:200]!r}") from exc
        if isinstance(payload, dict):
            if "error" in payload:
                raise ModelError(f"the server reported an error: {str(payload['error'])[:500]}")
            yield payload


def _text_of(choice: Any) -> str:
    if not isinstance(choice, dict):
        return ""
    delta = choice.get("delta")
    text = delta.get("content") if isinstance(delta, dict) else choice.get("text")
    return text if isinstance(text, str) else ""


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0
