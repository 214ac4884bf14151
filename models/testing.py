"""`ScriptedModel`: a deterministic stand-in for a language model, for logic tests.

It returns queued replies in order and records every call's request, so a test can assert how
many calls were made and what each prompt contained. Real-model behaviour is tested against the
embedded model; this is for what does not depend on the model.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Iterator, Sequence

from models.fences import program_arrived
from models.types import (
    BatchEvent,
    BatchSplit,
    Capabilities,
    FinishReason,
    Generation,
    GenerationRequest,
    ModelError,
    SequenceChunk,
    SequenceDone,
)


class ScriptedModel:
    """Replies with the queued strings, in order; streams each in `chunk_size`-character pieces."""

    def __init__(
        self,
        replies: Iterable[str],
        *,
        chunk_size: int | None = None,
        chunk_delay_s: float = 0.0,
        name: str = "scripted",
        parallel: int = 1,
        grammar: bool = True,
        holds: int | None = None,
        gain: float | None = None,
    ) -> None:
        """`parallel` > 1 makes it a batching model (like `LocalModel`): `generate_batch` takes the
        next replies for its requests, in order, and interleaves their chunks as a batch would.
        `holds`: how many sequences its context holds at once, as a long question's would; a batch
        of more is announced by a `BatchSplit` and decoded in turns of that many. `gain`: what
        `batch_gain` says, as `LocalModel` does once it has timed its batches."""
        self._replies = deque(replies)
        self._chunk_size = chunk_size
        self._delay = chunk_delay_s  # pretend to be slow, e.g. to cancel a stream in a GUI test
        self._name = name
        self._cancelled = threading.Event()
        self.calls: list[str] = []  # each call's prompt, as text
        self.requests: list[GenerationRequest] = []
        # grammar=False stands in for a server that takes no grammar
        self.capabilities = Capabilities(batch=parallel, grammar=grammar, token_bias=True)
        self.batches: list[int] = []  # the size of each generate_batch call
        self._holds = holds
        self._gain = gain
        self.closed = False

    @property
    def name(self) -> str:
        return self._name

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        self._cancelled.clear()
        self.requests.append(request)
        self.calls.append(request.as_text())
        if not self._replies:
            raise ModelError(f"{self._name} has no reply left for call {len(self.calls)}")
        reply = self._replies.popleft()
        size = self._chunk_size or max(len(reply), 1)
        sent = 0
        for start in range(0, len(reply), size):
            if self._cancelled.wait(self._delay) if self._delay else self._cancelled.is_set():
                break
            yield reply[start : start + size]
            sent = start + size
            if request.stop_after_code_block and program_arrived(reply[:sent]):
                break  # the program has arrived: every model stops there
        text = reply[: min(sent, len(reply))]
        finish: FinishReason = "cancelled" if self._cancelled.is_set() and sent < len(reply) else "stop"
        yield Generation(text, len(self.calls[-1].split()), 0, len(text.split()), 0.0, 0.0, finish)

    def generate_batch(self, requests: Sequence[GenerationRequest]) -> Iterator[BatchEvent]:
        if self.capabilities.batch < 2:
            raise ModelError(f"{self._name} was not made with parallel > 1")
        self.batches.append(len(requests))
        size = self._holds or len(requests)
        turns = [range(start, min(start + size, len(requests))) for start in range(0, len(requests), size)]
        if len(turns) > 1:
            yield BatchSplit(tuple(map(len, turns)), 4096)
        streams = [self.generate(request) for request in requests]
        for turn in turns:
            done: set[int] = set()
            while len(done) < len(turn):  # one chunk of each live sequence per step, like a decode step
                for index in turn:
                    if index in done:
                        continue
                    item = next(streams[index])
                    if isinstance(item, Generation):
                        done.add(index)
                        yield SequenceDone(index, item)
                    else:
                        yield SequenceChunk(index, item)

    def batch_gain(self, sequences: int | None = None) -> float | None:
        return self._gain

    def cancel(self) -> None:
        self._cancelled.set()

    def close(self) -> None:
        self._replies.clear()
        self.closed = True
