"""The zygote: a pristine process that forks every child and never sees a program's data.

Why: a forked child inherits its parent's whole heap, freed memory included. The worker reads
programs and collects their output, so children forked from it could scan their own memory for
an earlier run's bytes (measured: an earlier program's printed text, 100 runs later). The zygote
is forked from the worker right after the warm-up, before any request, and afterwards handles
only small control messages: "spawn" (it forks a child and hands the worker the child's pipe ends
over a UNIX socket), "kill" and the exit report. The child reads its own request from a pipe.

The zygote alone forks, kills and reaps the children, so a kill never reaches a recycled pid:
a child is killed only while the zygote has not yet reaped it. Its parent-death signal ties it
to the worker; each child's ties it to the zygote.

Messages on the socket are JSON lines; the pipe ends travel as SCM_RIGHTS with "spawned".
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from sandbox._libc import prctl
from sandbox.protocol import Exited, Kill, Message, ProtocolError, Spawn, Spawned, encode, from_object, loads_line

_PR_SET_PDEATHSIG = 1
_MAX_MESSAGE = 4096
PIPES = ("request", "stdout", "stderr", "report", "reply")  # the order of the fds in "spawned"

# (child's ends: request_r, stdout_w, stderr_w, report_w, reply_r; the zygote's pid) -> never returns
ChildMain = Callable[[tuple[int, int, int, int, int], int], NoReturn]


@dataclass(frozen=True)
class Child:
    """A fresh child as the worker sees it: its pid and the worker's ends of its pipes."""

    pid: int
    request_w: int
    stdout_r: int
    stderr_r: int
    report_r: int
    reply_w: int


class Zygote:
    """The worker's handle on its zygote process (used only from the worker's single thread)."""

    def __init__(self, child_main: ChildMain) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        worker_pid = os.getpid()
        pid = os.fork()
        if pid == 0:
            ours.close()
            _serve(theirs, worker_pid, child_main)
        theirs.close()
        self.pid = pid
        self._sock = ours
        self._buffer = b""
        self._fds: list[int] = []

    def fileno(self) -> int:
        return self._sock.fileno()

    def spawn(self) -> Child:
        """Fork a fresh child (blocking: the zygote answers within milliseconds)."""
        self._send(Spawn())
        message = self.receive(wait=True)
        while not isinstance(message, Spawned):
            message = self.receive(wait=True)  # an exit report of an earlier child cannot come here
        fds, self._fds = self._fds[: len(PIPES)], self._fds[len(PIPES) :]
        if len(fds) != len(PIPES):
            for fd in fds:
                os.close(fd)
            raise OSError("the sandbox zygote sent a malformed reply")
        return Child(message.pid, *fds)

    def kill(self, pid: int) -> None:
        self._send(Kill(pid))

    def receive(self, *, wait: bool = False) -> Message | None:
        """The next message (None when none is complete and `wait` is false)."""
        while b"\n" not in self._buffer:
            if not wait and not select.select([self._sock], [], [], 0)[0]:
                return None
            data, fds, _flags, _addr = socket.recv_fds(self._sock, _MAX_MESSAGE, len(PIPES))
            if not data:
                raise OSError("the sandbox zygote stopped")
            self._buffer += data
            self._fds += fds
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return from_object(loads_line(line), Spawned, Exited)
        except ProtocolError as exc:
            raise OSError(f"the sandbox zygote sent a malformed message ({exc})") from exc

    def exited(self, message: object) -> Exited | None:
        return message if isinstance(message, Exited) else None

    def _send(self, message: Message) -> None:
        self._sock.sendall(encode(message))


def _serve(sock: socket.socket, worker_pid: int, child_main: ChildMain) -> NoReturn:
    """The zygote's loop. Never touches a program's text, output or values."""
    live: set[int] = set()
    try:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != worker_pid:
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):  # the worker's channel to the host is not ours to read or hold open
            os.dup2(devnull, fd)
        os.close(devnull)
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda _signum, _frame: None)
        buffer = b""
        while True:
            ready, _, _ = select.select([sock.fileno(), wake_r], [], [])
            if wake_r in ready:
                os.read(wake_r, 4096)
                _reap(sock, live)
            if sock.fileno() in ready:
                data = sock.recv(_MAX_MESSAGE)
                if not data:
                    break  # the worker is gone
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    _handle(from_object(loads_line(line), Spawn, Kill), sock, live, child_main, (wake_r, wake_w))
                _reap(sock, live)
    except BaseException:
        pass
    for pid in live:
        _kill(pid)
    os._exit(0)


def _handle(
    message: Message,
    sock: socket.socket,
    live: set[int],
    child_main: ChildMain,
    own_fds: tuple[int, int],
) -> None:
    if isinstance(message, Kill):
        if message.pid in live:  # never a reaped (and so possibly recycled) pid
            _kill(message.pid)
        return
    if not isinstance(message, Spawn):
        return
    pipes = [os.pipe() for _ in PIPES]
    request, stdout, stderr, report, reply = pipes
    child_ends = (request[0], stdout[1], stderr[1], report[1], reply[0])
    worker_ends = [request[1], stdout[0], stderr[0], report[0], reply[1]]
    zygote_pid = os.getpid()
    pid = os.fork()
    if pid == 0:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in (*worker_ends, *own_fds):
            os.close(fd)
        sock.close()
        child_main(child_ends, zygote_pid)
    live.add(pid)
    for fd in child_ends:
        os.close(fd)
    socket.send_fds(sock, [encode(Spawned(pid))], worker_ends)
    for fd in worker_ends:
        os.close(fd)


def _reap(sock: socket.socket, live: set[int]) -> None:
    for pid in list(live):
        try:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            live.discard(pid)
            continue
        if info is None:
            continue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)  # anything the child left in its group (only possible without seccomp)
        _, status, usage = os.wait4(pid, 0)
        live.discard(pid)
        cpu = usage.ru_utime + usage.ru_stime
        sock.sendall(encode(Exited(pid, status, cpu)))


def _kill(pid: int) -> None:
    for kill in (os.killpg, os.kill):  # the group may not exist yet if the child has just forked
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)
