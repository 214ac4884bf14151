"""The forked child: read its request, lock itself down, run the program once, report, exit.

Runs only in a fresh fork of the zygote (see `sandbox.zygote`) and never returns. Order matters:
descriptors are closed and rlimits set first, root is given up while /proc can still be read to
prove it, the parent-death signal is set after that (a credential change clears it), no_new_privs
precedes Landlock and seccomp, and seccomp comes last because it forbids what the earlier steps
need (prlimit, setresuid is still allowed but worthless by then).
If any layer the plan promised cannot be applied, the program is not run at all.
"""

from __future__ import annotations

import io
import json
import os
import resource
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, NoReturn

from sandbox import landlock, privileges, seccomp, values
from sandbox._libc import prctl
from sandbox.guest import read_reply, report_json, run_request
from sandbox.protocol import MAX_EMULATION_REPLY_BYTES, ChildRequest, Emulate, EmulationReply, decode_as, encode

_PR_SET_PDEATHSIG = 1
RESULT_FD = 3  # the report (and, for Chain of Code, emulation requests) as JSON lines
REPLY_FD = 4  # emulation replies from the worker, JSON lines
MAX_REQUEST_BYTES = 48 * 1024 * 1024  # a program (≤ 1M characters) and its data (sandbox.data)
_CAPTURE_SECONDS = 1.0


@dataclass(frozen=True)
class Plan:
    """What the worker found this machine can do; every child applies all of it."""

    landlock_abi: int
    seccomp: bool
    drop_to: tuple[int, int] | None  # fallback (uid, gid) when running as root; see privileges.drop_root
    read_paths: tuple[str, ...]
    isolation: str
    tasks: int = privileges.THREADS  # RLIMIT_NPROC: the program's threads (+ the user's other tasks if not root)


def child_main(plan: Plan, ends: tuple[int, int, int, int, int], parent_pid: int) -> NoReturn:
    """Entry point in a fresh fork of the zygote: read the request the worker writes, then run it."""
    request_r, out_w, err_w, res_w, reply_r = ends
    try:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)  # until the credential change; set again after it
        if os.getppid() != parent_pid:
            os._exit(1)
        os.setpgid(0, 0)
        request = _read_request(request_r)
        os.close(request_r)
        devnull = os.open(os.devnull, os.O_RDONLY)
    except BaseException:
        os._exit(1)
    run_child(
        request, plan, parent_pid=parent_pid, out_w=out_w, err_w=err_w, res_w=res_w, reply_r=reply_r, devnull=devnull
    )


def _read_request(fd: int) -> ChildRequest:
    data = bytearray()
    while chunk := os.read(fd, 1 << 20):
        data += chunk
        if len(data) > MAX_REQUEST_BYTES:
            raise ValueError("request too large")
    return decode_as(bytes(data), ChildRequest)


def run_child(
    request: ChildRequest,
    plan: Plan,
    *,
    parent_pid: int,
    out_w: int,
    err_w: int,
    res_w: int,
    reply_r: int,
    devnull: int,
) -> NoReturn:
    started = time.monotonic()
    try:
        for fd, target in ((devnull, 0), (out_w, 1), (err_w, 2), (res_w, RESULT_FD), (reply_r, REPLY_FD)):
            os.dup2(fd, target)
        os.closerange(REPLY_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        _lock_down(request, plan, parent_pid)
    except BaseException as exc:  # fail closed: never run the program half-isolated
        _write_report(
            json.dumps({"status": "error", "error": f"the sandbox could not be locked down: {exc!r}"}).encode() + b"\n"
        )
        os._exit(1)

    sys.stdin = io.StringIO()
    stdout = _CountingStream(1)
    sys.stdout, sys.stderr = stdout, _CountingStream(2)
    channel = _EmulationChannel()
    ran = run_request(request, channel.ask, lambda: stdout.chars)
    started += channel.paused_s  # the time limit does not run while the model thinks
    _write_report(report_json(ran, _capture(ran.namespace, request.capture, started + request.time_s)) + b"\n")
    os._exit(0)


class _EmulationChannel:
    """Chain of Code's questions to the worker: a request up on fd 3, the reply on fd 4."""

    def __init__(self) -> None:
        self.paused_s = 0.0

    def ask(self, request: Emulate) -> EmulationReply:
        asked = time.monotonic()
        _write_report(encode(request))
        data = b""
        while not data.endswith(b"\n"):
            chunk = os.read(REPLY_FD, 65536)
            if not chunk:
                return EmulationReply.failed("the sandbox worker closed the emulation channel")
            data += chunk
            if len(data) > MAX_EMULATION_REPLY_BYTES + 1:
                return EmulationReply.failed("the emulation reply is too large")
        self.paused_s += time.monotonic() - asked
        return read_reply(data.rstrip(b"\n"))


def _lock_down(request: ChildRequest, plan: Plan, parent_pid: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    privileges.apply_rlimits(request.time_s, request.memory_mb, plan.tasks)
    if plan.drop_to is not None:
        privileges.drop_root(*plan.drop_to)
        if not privileges.capabilities_cleared():
            raise PermissionError("capabilities remain after dropping root")
    # Changing credentials cleared the parent-death signal: set it again, then make sure the
    # zygote did not die in between (we would have been adopted by another process).
    prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        raise ProcessLookupError("the sandbox zygote is gone")
    privileges.set_no_new_privs()
    if plan.landlock_abi:
        landlock.restrict_to_read_only(plan.read_paths, plan.landlock_abi)
    if plan.seccomp:
        seccomp.install(os.getpid())


class _CountingStream(io.TextIOWrapper):
    """The program's stdout/stderr: UTF-8, line-buffered (so output printed before a timeout still
    reaches the user), counting characters so a trace step knows how much had been printed."""

    def __init__(self, fd: int) -> None:
        raw = io.FileIO(fd, "w", closefd=False)
        super().__init__(io.BufferedWriter(raw), encoding="utf-8", errors="backslashreplace", line_buffering=True)
        self.chars = 0

    def write(self, text: str) -> int:
        self.chars += len(text)
        return super().write(text)


def _capture(namespace: dict[str, Any], names: tuple[str, ...], deadline: float) -> dict[str, Any]:
    """Render the requested variables, giving hostile __repr__ methods a bounded time."""

    def on_alarm(_signum: int, _frame: object) -> None:
        raise values.CaptureTimeout

    signal.signal(signal.SIGALRM, on_alarm)
    budget = min(_CAPTURE_SECONDS, deadline - time.monotonic() - 0.05)
    signal.setitimer(signal.ITIMER_REAL, max(budget, 0.01))
    try:
        return values.capture(namespace, names)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _write_report(data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(RESULT_FD, view)
        view = view[written:]
