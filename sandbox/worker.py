"""The warm worker: imports what programs may use once, then runs each program in a fresh child.

Started by `sandbox.host.Sandbox` as its own single-threaded process (never a fork of the app,
which may be multi-threaded Qt). Speaks JSON lines: requests on stdin, replies on stdout.
Children are forked by the zygote (`sandbox.zygote`), never by the worker, whose heap holds
earlier programs and their output. While a child runs, the worker writes it its request,
collects its output under the caps and enforces the wall-clock deadline and cancel requests on
the process itself: a run ends when the child has exited, not when its pipes close (a program
that closes them and sleeps is still killed on time). It exits when its stdin closes, i.e. when
the app is gone; the zygote and any child follow through their parent-death signals.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import select
import signal
import sys
import time

from sandbox import landlock, platforms, privileges, seccomp
from sandbox._libc import prctl
from sandbox.child import Plan, child_main
from sandbox.protocol import (
    MAX_EMULATE_BYTES,
    MAX_EMULATIONS,
    Cancel,
    ChainStep,
    ChildRequest,
    Emulate,
    Emulated,
    EmulateRequest,
    Exited,
    LayerInfo,
    Message,
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
)
from sandbox.report import parse_report, program_lines
from sandbox.result import CapturedValue, Isolation, RunResult, Status
from sandbox.warmup import warm_up
from sandbox.zygote import Zygote

_PR_SET_DUMPABLE = 4
_RESULT_CAP = 8 * 1024 * 1024
_CHUNK = 65536
_MAX_REQUEST = 64 * 1024 * 1024
_DRAIN_S = 0.5  # after the child exited: how long to wait for its pipes' last bytes
_KILL_GRACE_S = 5.0  # after SIGKILL: the zygote must report the exit by then


def make_plan() -> tuple[Plan, list[platforms.Layer]]:
    abi = landlock.abi_version()
    seccomp_ok = seccomp.available()
    is_root = os.geteuid() == 0
    layers = platforms.linux_layers(abi, seccomp_ok, is_root)
    plan = Plan(
        landlock_abi=abi,
        seccomp=seccomp_ok,
        drop_to=privileges.nobody_ids() if is_root else None,
        read_paths=platforms.read_paths(),
        isolation=platforms.level(layers).value,
        # Without root the children share the user's uid, whose other tasks RLIMIT_NPROC counts too.
        tasks=privileges.THREADS + (0 if is_root else privileges.tasks_of_user(os.getuid())),
    )
    return plan, layers


class _Channel:
    """JSON lines over fds 0 (in) and 1 (out), unbuffered so poll() sees every pending byte."""

    def __init__(self) -> None:
        self._buffer = b""
        self.closed = False

    def send(self, message: Message) -> None:
        view = memoryview(encode(message))
        while view:
            view = view[os.write(1, view) :]

    def pending(self) -> list[object]:
        """Read what is available now (call after poll says fd 0 is readable)."""
        chunk = os.read(0, _CHUNK)
        if not chunk:
            self.closed = True
        self._buffer += chunk
        if len(self._buffer) > _MAX_REQUEST:
            self._buffer = b""  # a runaway host: drop rather than grow without bound
        *lines, self._buffer = self._buffer.split(b"\n")
        messages: list[object] = []
        for line in lines:
            try:
                messages.append(loads_line(line))
            except ProtocolError:
                continue
        return messages

    def receive(self) -> list[object] | None:
        """Block until at least one message arrives; None once the app has gone."""
        while not self.closed:
            messages = self.pending()
            if messages:
                return messages
        return None


class _Run:
    """One child from spawn to exit, with its output collected under the caps."""

    def __init__(self, request: RunRequest, plan: Plan, *, channel: _Channel, zygote: Zygote) -> None:
        self.request, self.output_bytes, self.plan = request, request.output_bytes, plan
        self.channel, self.zygote, self.run_id = channel, zygote, request.id
        self.stdout, self.stderr, self.report = bytearray(), bytearray(), bytearray()
        self.reason: Status | None = None  # why the worker killed the child, if it did
        self.killed_at: float | None = None
        # Chain of Code: the child's report lines may ask for an emulation; while the host's model
        # answers, the child waits and its wall-clock limit is paused.
        self.lines = bytearray()
        self.reply_w: int | None = None
        self.paused_at: float | None = None
        self.paused_cpu = 0.0  # the child's CPU seconds when the pause began
        self.emulations = 0
        self.failure: str | None = None  # why the worker failed the run (reason ERROR), in words
        self.deadline = 0.0
        self.pid = 0

    def execute(self) -> RunResult:
        started = time.monotonic()
        child = self.zygote.spawn()
        self.pid, self.reply_w = child.pid, child.reply_w
        asked = self.request
        request = encode(
            ChildRequest(
                asked.code, asked.time_s, asked.memory_mb, asked.capture, asked.trace, asked.emulate, asked.data
            )
        )
        sinks = {child.stdout_r: self.stdout, child.stderr_r: self.stderr, child.report_r: self.report}
        try:
            exited = self._collect(sinks, started, child.request_w, memoryview(request))
        finally:
            os.close(child.reply_w)
        duration = time.monotonic() - started
        return self._result(exited.wait_status, exited.cpu_s, duration)

    def _collect(self, sinks: dict[int, bytearray], started: float, request_w: int, request: memoryview) -> Exited:
        """Run until the child has exited (and its pipes are drained), whatever it does to its pipes."""
        self.deadline = started + self.request.time_s
        self._sinks, self._request_w, self._pending = sinks, request_w, request
        self._poller = select.poll()
        for fd in sinks:
            self._poller.register(fd, select.POLLIN)
        self._poller.register(0, select.POLLIN)
        self._poller.register(self.zygote.fileno(), select.POLLIN)
        os.set_blocking(request_w, False)
        self._poller.register(request_w, select.POLLOUT)
        self._open: set[int] = {*sinks, request_w}
        exited: Exited | None = None
        drain_until = 0.0
        try:
            while exited is None or (self._open - {request_w} and time.monotonic() < drain_until):
                timeout_s = self._enforce_deadline(exited is not None)
                if exited is not None:
                    timeout_s = min(timeout_s, drain_until - time.monotonic())
                for fd, _events in self._poller.poll(max(1, int(timeout_s * 1000) + 1)):
                    if fd != self.zygote.fileno():
                        self._on_ready(fd)
                    elif exited is None and (exited := self._exit_report()) is not None:
                        drain_until = time.monotonic() + _DRAIN_S
        finally:
            for fd in self._open:
                os.close(fd)
        return exited

    def _enforce_deadline(self, exited: bool) -> float:
        """Kill the child once its time is up; return how long the next poll may wait."""
        now = time.monotonic()
        remaining = self.deadline - now
        if self.paused_at is not None:
            remaining = self.request.time_s  # waiting for the host's model: the clock is stopped
        elif remaining <= 0 and self.reason is None:
            self._kill(Status.TIMEOUT)
        if self.killed_at is not None and not exited and now - self.killed_at > _KILL_GRACE_S:
            raise OSError("the sandbox zygote did not report a killed child")
        return 0.05 if self.reason is not None else remaining

    def _on_ready(self, fd: int) -> None:
        if fd == 0:
            self._on_host_message()
            if self.channel.closed:
                self._poller.unregister(0)
        elif fd == self._request_w:
            self._pending = self._write_request(fd, self._pending)
            if not self._pending:
                self._close(fd)
        elif not (data := os.read(fd, _CHUNK)):
            self._close(fd)
        elif self._sinks[fd] is self.report and self.request.emulate:
            self._report_lines(data)
        else:
            self._store(self._sinks[fd], data, is_report=self._sinks[fd] is self.report)

    def _close(self, fd: int) -> None:
        self._poller.unregister(fd)
        self._open.discard(fd)
        os.close(fd)

    def _exit_report(self) -> Exited | None:
        while (message := self.zygote.receive()) is not None:
            exited = self.zygote.exited(message)
            if exited is not None and exited.pid == self.pid:
                return exited
        return None

    @staticmethod
    def _write_request(fd: int, rest: memoryview) -> memoryview:
        try:
            return rest[os.write(fd, rest[:_CHUNK]) :]
        except BlockingIOError:
            return rest
        except OSError:  # the child is gone before reading it all
            return rest[len(rest) :]

    def _store(self, sink: bytearray, data: bytes, *, is_report: bool) -> None:
        room = _RESULT_CAP - len(sink) if is_report else self.output_bytes - len(self.stdout) - len(self.stderr)
        sink += data[: max(room, 0)]
        if len(data) > room and self.reason is None:
            self._kill(Status.OUTPUT_LIMIT)

    def _report_lines(self, data: bytes) -> None:
        """Split the child's report stream: emulation requests go to the host, the rest is the report.

        The buffer is split once per chunk that holds a newline (never copied again per line), and
        requests are counted and size-capped here: a flood fails the run."""
        self.lines += data
        if b"\n" in data:
            *complete, rest = self.lines.split(b"\n")
            self.lines = bytearray(rest)
            for line in complete:
                self._report_line(bytes(line))
        if len(self.lines) > _RESULT_CAP and self.reason is None:
            self._kill(Status.OUTPUT_LIMIT)

    def _report_line(self, line: bytes) -> None:
        if self.reason is not None:
            return
        if len(line) > MAX_EMULATE_BYTES and opens_as(line, Emulate):
            self._fail(f"the program sent an emulation request over {MAX_EMULATE_BYTES:,} bytes")
            return
        emulate = emulation_request(line) if self.paused_at is None else None
        if emulate is None:
            self._store(self.report, line + b"\n", is_report=True)
            return
        self.emulations += 1
        if self.emulations > MAX_EMULATIONS:
            self._fail(f"the program asked for more than {MAX_EMULATIONS} emulations in one run")
            return
        self.paused_at, self.paused_cpu = time.monotonic(), _cpu_seconds(self.pid)
        self.channel.send(EmulateRequest(self.run_id, emulate))

    def _fail(self, why: str) -> None:
        self.failure = why
        self._kill(Status.ERROR)

    def _on_host_message(self) -> None:
        for raw in self.channel.pending():
            try:
                message = from_object(raw, Cancel, Emulated)
            except ProtocolError:
                continue
            if self.reason is not None or getattr(message, "id", None) != self.run_id:
                continue
            if isinstance(message, Cancel):
                self._kill(Status.KILLED)
            elif isinstance(message, Emulated) and self.paused_at is not None:
                # The clock stood still only for the time the child really waited: CPU it used
                # meanwhile (it need not block on the reply) counts against its limit.
                waited = time.monotonic() - self.paused_at
                self.deadline += max(0.0, waited - (_cpu_seconds(self.pid) - self.paused_cpu))
                self.paused_at = None
                reply = message.reply.line()
                with contextlib.suppress(OSError):  # the child may have died meanwhile
                    assert self.reply_w is not None
                    view = memoryview(reply)
                    while view:
                        view = view[os.write(self.reply_w, view) :]
        if self.channel.closed and self.reason is None:
            self._kill(Status.KILLED)

    def _kill(self, reason: Status) -> None:
        self.reason, self.killed_at = reason, time.monotonic()
        self.zygote.kill(self.pid)  # the zygote kills only a child it has not reaped: no recycled pid

    def _result(self, wait_status: int, cpu_s: float, duration: float) -> RunResult:
        status, error, error_line = Status.ERROR, None, None
        values: dict[str, CapturedValue] = {}
        trace: tuple[TraceStep, ...] | None = None
        steps: tuple[ChainStep, ...] | None = None
        limit_text = f"{self.request.time_s:g} s"
        if self.reason is Status.KILLED:
            error = "cancelled"
        elif self.reason is Status.ERROR:
            error = self.failure
        elif self.reason is Status.OUTPUT_LIMIT:
            error = f"the program printed more than {self.output_bytes} bytes and was stopped"
        elif self.reason is Status.TIMEOUT:
            error = f"the program ran longer than its time limit of {limit_text} and was stopped"
        elif os.WIFSIGNALED(wait_status):
            sig = os.WTERMSIG(wait_status)
            if sig in (signal.SIGKILL, signal.SIGXCPU) and cpu_s >= self.request.time_s:
                status, error = Status.TIMEOUT, f"the program used more than {limit_text} of CPU time"
            else:
                status = Status.KILLED
                error = f"the program crashed ({signal.Signals(sig).name}: {signal.strsignal(sig)})"
        else:
            status, error, error_line, values, trace, steps = parse_report(
                bytes(self.report), wait_status, self.request.capture, program_lines(self.request.code)
            )
        if self.reason is not None:
            status = self.reason
        return RunResult(
            status=status,
            stdout=self.stdout.decode("utf-8", "replace"),
            stderr=self.stderr.decode("utf-8", "replace"),
            error=error,
            error_line=error_line,
            values=values,
            duration_s=duration,
            isolation=Isolation(self.plan.isolation),
            trace=trace,
            steps=steps,
        )


def serve() -> None:
    warm_up()
    plan, layers = make_plan()
    with contextlib.suppress(OSError):
        prctl(_PR_SET_DUMPABLE, 0)  # other processes of this user may not read our memory
    gc.collect()
    gc.freeze()  # keeps the children's copy-on-write pages shared
    # Forked now, before any request has been read: the zygote's memory never holds program data.
    zygote = Zygote(functools.partial(child_main, plan))
    channel = _Channel()
    layer_info = tuple(LayerInfo(x.name, x.active, x.detail) for x in layers)
    channel.send(Ready(plan.isolation, layer_info, zygote.pid))
    while (messages := channel.receive()) is not None:
        for message in messages:
            _serve_one(message, plan, channel, zygote)


def _serve_one(raw: object, plan: Plan, channel: _Channel, zygote: Zygote) -> None:
    """Run one request; other messages (a cancel that arrived after its run ended) are dropped,
    a malformed request is refused."""
    try:
        request = from_object(raw, RunRequest, Cancel, Emulated)
    except ProtocolError as exc:
        run_id = raw.get("id") if isinstance(raw, dict) else None
        channel.send(Refused(run_id if isinstance(run_id, int) and not isinstance(run_id, bool) else None, str(exc)))
        return
    if not isinstance(request, RunRequest):
        return
    try:
        result = _Run(request, plan, channel=channel, zygote=zygote).execute()
    except (OSError, ValueError) as exc:  # the zygote failed: say so, then stop so the host starts afresh
        channel.send(Refused(request.id, f"the sandbox could not run the program: {exc}", fatal=True))
        sys.exit(1)
    channel.send(Result(request.id, result.to_json()))


def _cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far (0 when it cannot be read: then no credit is lost)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host decides when the worker stops
    serve()
    sys.exit(0)


if __name__ == "__main__":
    main()
