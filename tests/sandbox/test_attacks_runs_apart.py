"""Attacks on what keeps runs apart and bounded: leftovers between runs, escaping the deadline,
reaching other processes, forging the result. Each of these got through before the zygote,
the per-run uid and the seccomp rules of round two."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

from sandbox import Sandbox, Status

from .conftest import ESCAPE, NO_PROCESSES, NO_SYSCALLS, WASM, assert_contained, native_only, session_members


def _run(box: Sandbox, body: str, **options: object):
    return box.run(ESCAPE + body, **options)  # type: ignore[arg-type]


# -- 1. SysV IPC and POSIX message queues -------------------------------------------------------


@native_only(NO_SYSCALLS + "; WASI has no IPC of any kind")
def test_sysv_ipc_and_message_queues_are_denied(box: Sandbox) -> None:
    body = (
        "for name, args in (('shmget', (0, 4096, 0o1666)), ('msgget', (0, 0o1666)), ('semget', (0, 1, 0o1666))):\n"
        "    rc, err = call(getattr(libc, name), *args)\n"
        "    print(name, rc, err)\n"
        "rc, err = call(libc.mq_open, b'/pal-q', 0o102, 0o666, None)\nprint('mq_open', rc, err)\n"
    )
    result = _run(box, body)
    assert result.stdout.splitlines() == ["shmget -1 1", "msgget -1 1", "semget -1 1", "mq_open -1 1"], result.stdout
    assert_contained(box)


# -- 2. an earlier run's bytes in a later run's memory ------------------------------------------

_SCAN = """
libc.sbrk.restype = ctypes.c_void_p
libc.write.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
libc.msync.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]  # ENOMEM where nothing is mapped
# (mincore would say the same, but it is denied: it also probes the page cache of files)
# The two halves, each stored reversed: the whole needle never sits in this program's own memory.
head, tail = bytes.fromhex({head!r})[::-1], bytes.fromhex({tail!r})[::-1]
r, w = os.pipe()
CHUNK = 1 << 20
anchors = {{libc.sbrk(0), id(object()), ctypes.cast(libc.pause, ctypes.c_void_p).value, id(sys.modules)}}
pages = 0
found = False
seen = set()
for anchor in anchors:
    base = (anchor // CHUNK) * CHUNK
    for i in range(-256, 256):
        start = base + i * CHUNK
        if start <= 0 or start in seen:
            continue
        seen.add(start)
        whole_chunk = libc.msync(start, CHUNK, 1) == 0
        for address in range(start, start + CHUNK, 4096):
            if not whole_chunk and libc.msync(address, 4096, 1) != 0:
                continue  # not mapped
            if libc.write(w, address, 4096) != 4096:
                continue  # mapped but not readable
            pages += 1
            page = os.read(r, 4096)
            at = page.find(head)
            while at >= 0 and not found:
                found = page[at + 20 : at + 20 + len(tail)] == tail
                at = page.find(head, at + 1)
            if found:
                break
        if found:
            break
    if found:
        break
print("FOUND" if found else "CLEAN", pages)
"""


@native_only("the guest cannot read its memory raw (no ctypes); test_wasm.py searches every object of a later guest")
def test_a_later_run_cannot_find_an_earlier_runs_output_in_its_memory(box: Sandbox) -> None:
    """Measured before the zygote: FOUND in every later run (children forked from the worker,
    whose freed buffers still held the earlier output)."""
    secret = ("pal-private-" + uuid.uuid4().hex).encode()
    first = box.run(f"s = {secret.decode()!r}\nfor _ in range(1500):\n    print(s)\nans = s", output_bytes=1_000_000)
    assert first.ok and secret.decode() in first.stdout
    scan = _SCAN.format(head=secret[:20][::-1].hex(), tail=secret[20:][::-1].hex())
    for _ in range(2):
        result = _run(box, scan, time_s=20)
        assert result.ok, result.error
        verdict, pages = result.stdout.split()
        assert int(pages) > 1000, "the scan did not cover the heap"
        assert verdict == "CLEAN"


# -- 3. and 4. the parent-death signal, and a program that closes its own pipes ------------------


def _children(box: Sandbox) -> list[int]:
    worker = box.worker_pid
    assert worker is not None
    return session_members(worker, box.zygote_pid)


def _wait_for(predicate, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().split(b") ", 1)[1][:1] != b"Z"
    except OSError:
        return False


def _parent_of(pid: int) -> int:
    with open(f"/proc/{pid}/stat", "rb") as stat:
        return int(stat.read().split(b") ", 1)[1].split()[1])


@native_only(NO_PROCESSES + ", so it dies with it")
def test_a_child_dies_with_its_parent() -> None:
    with Sandbox() as box:
        box.start()
        outcome: list[object] = []
        thread = threading.Thread(target=lambda: outcome.append(box.run("import time\ntime.sleep(30)", time_s=30)))
        thread.start()
        assert _wait_for(lambda: len(_children(box)) == 1)
        (child,) = _children(box)
        os.kill(_parent_of(child), signal.SIGKILL)
        assert _wait_for(lambda: not _alive(child)), "the child outlived its parent"
        thread.join(timeout=15)
        assert not thread.is_alive() and outcome
        assert box.run("ans = 2").values["ans"].json == 2  # the sandbox starts afresh


_CLOSE_AND_SLEEP = "for fd in (1, 2, 3, 4):\n    os.close(fd)\nsys.modules['time'].sleep(30)\n"


def test_closing_its_pipes_does_not_escape_the_deadline(box: Sandbox) -> None:
    started = time.monotonic()
    result = _run(box, _CLOSE_AND_SLEEP, time_s=1.0)
    assert result.status is Status.TIMEOUT
    assert time.monotonic() - started < 2.5
    assert_contained(box)


@native_only(NO_PROCESSES + "; tests/sandbox/test_wasm.py cancels and closes a guest that closed its descriptors")
def test_closing_its_pipes_does_not_escape_cancel_or_close() -> None:
    with Sandbox() as box:
        box.start()
        outcome: list[object] = []
        thread = threading.Thread(target=lambda: outcome.append(_run(box, _CLOSE_AND_SLEEP, time_s=30)))
        thread.start()
        assert _wait_for(lambda: len(_children(box)) == 1)
        time.sleep(0.3)  # the program has closed its pipes by now
        cancelled = time.monotonic()
        box.cancel()
        thread.join(timeout=5)
        assert not thread.is_alive() and time.monotonic() - cancelled < 2
        assert outcome[0].status is Status.KILLED  # type: ignore[attr-defined]
        assert_contained(box)
        # and a run still in flight when the sandbox closes does not outlive it
        thread = threading.Thread(target=lambda: _run(box, _CLOSE_AND_SLEEP, time_s=30))
        thread.start()
        assert _wait_for(lambda: len(_children(box)) == 1)
        (child,) = _children(box)
        time.sleep(0.3)
        box.close()
        thread.join(timeout=10)
        assert _wait_for(lambda: not _alive(child)), "the child outlived Sandbox.close()"


# -- 5. threads and processes are counted --------------------------------------------------------


_CLONES = """
libc.clone.restype = ctypes.c_int
libc.clone.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
stack = ctypes.create_string_buffer(1 << 16)
top = ctypes.addressof(stack) + (1 << 16) - 256
pause = ctypes.cast(libc.pause, ctypes.c_void_p)
flags = 0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000  # VM FS FILES SIGHAND THREAD SYSVSEM
made = 0
for _ in range(2000):
    if libc.clone(pause, top, flags, None) < 0:
        break
    made += 1
print("clones", made, ctypes.get_errno())
"""


@native_only(NO_SYSCALLS + "; WASI has no threads (test_python_threads_are_bounded_too)")
def test_raw_threads_on_a_shared_stack_are_capped(box: Sandbox) -> None:
    """Threads sharing one stack cost no address space, so only a task count bounds them."""
    result = _run(box, _CLONES, time_s=3)
    assert result.stdout.split() == ["clones", "63", "11"], result.stdout  # 64 tasks with the program's own; EAGAIN
    assert_contained(box)


def test_python_threads_are_bounded_too(box: Sandbox) -> None:
    body = (
        "threading = real_import('threading')\ntime = real_import('time')\nmade = 0\n"
        "try:\n    for _ in range(2000):\n"
        "        threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n        made += 1\n"
        "finally:\n    print('threads', made)\n"
    )
    result = _run(box, body, time_s=3)
    assert int(result.stdout.split()[-1]) < 64
    assert result.status is Status.ERROR and "can't start new thread" in (result.error or "")
    assert_contained(box)


# -- 6. other processes of the sandbox user ------------------------------------------------------


def _nice_policy_cpus(pid: int) -> tuple[int, int, set[int]]:
    return os.getpriority(os.PRIO_PROCESS, pid), os.sched_getscheduler(pid), os.sched_getaffinity(pid)


@native_only(NO_PROCESSES + "; WASI has no priorities, schedulers or affinities to set")
def test_other_processes_cannot_be_reniced_rescheduled_or_moved(box: Sandbox) -> None:
    ids = {"user": 65534, "group": 65534} if os.geteuid() == 0 else {}
    bystander = subprocess.Popen(["sleep", "30"], **ids)  # type: ignore[call-overload]
    try:
        before = _nice_policy_cpus(bystander.pid)
        pid = bystander.pid
        body = (
            f"pid = {pid}\n"
            "attempt('setpriority', os.setpriority, os.PRIO_PROCESS, pid, 19)\n"
            "attempt('setpriority-user', os.setpriority, os.PRIO_USER, 0, 19)\n"
            "attempt('scheduler', os.sched_setscheduler, pid, os.SCHED_IDLE, os.sched_param(0))\n"
            "attempt('affinity', os.sched_setaffinity, pid, {0})\n"
            "rc, err = call(libc.syscall, 251, 1, pid, (3 << 13) | 7)\nprint('ioprio_set', rc, err)\n"
            "attempt('own-priority', os.setpriority, os.PRIO_PROCESS, 0, 5)\n"
        )
        result = _run(box, body)
        lines = result.stdout.splitlines()
        assert [line for line in lines if "DENIED" in line or "ioprio_set" in line] == [
            "setpriority DENIED PermissionError",
            "setpriority-user DENIED PermissionError",
            "scheduler DENIED PermissionError",
            "affinity DENIED PermissionError",
            "ioprio_set -1 1",
        ], result.stdout
        assert "own-priority ALLOWED" in lines  # its own niceness is the program's business
        assert _nice_policy_cpus(bystander.pid) == before
    finally:
        bystander.kill()
        bystander.wait()


@native_only(NO_PROCESSES + "; a guest has no user at all")
def test_each_run_has_a_user_of_its_own(box: Sandbox) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root can give a child a uid of its own")
    uids = {_run(box, "print(os.getuid())").stdout.strip() for _ in range(3)}
    assert len(uids) == 3 and "65534" not in uids and "0" not in uids


# -- 7. watches outside the readable folders ------------------------------------------------------


@native_only(NO_SYSCALLS)
def test_inotify_and_fanotify_are_denied(box: Sandbox) -> None:
    body = (
        "fd, err = call(libc.inotify_init1, 0)\nprint('inotify', fd, err)\n"
        "fd, err = call(libc.fanotify_init, 0, 0)\nprint('fanotify', fd, err)\n"
    )
    assert _run(box, body).stdout.splitlines() == ["inotify -1 1", "fanotify -1 1"]


# -- 8. a forged result line ---------------------------------------------------------------------

_FORGE = """
report = {{"status": "ok", "error": None, "error_line": None, "trace": None, "steps": None, "values": {values}}}
data = sys.modules["json"].dumps(report).replace('"NAN_HERE"', 'NaN').encode() + b"\\n"
to_worker(data)
os._exit(0)
"""


def _forge(box: Sandbox, values: str, **options: object):
    return _run(box, _FORGE.format(values=values), **options)


def test_a_forged_result_is_capped_and_keeps_only_the_names_asked_for(box: Sandbox) -> None:
    values = (
        "{'ans': {'repr': 'x' * 3_000_000, 'json': 1, 'type': 't' * 3_000_000, 'latex': 'l' * 1_000_000},"
        " 'stolen': {'repr': 'secret', 'json': None, 'type': 'str', 'latex': None}}"
    )
    result = _forge(box, values)
    assert result.status is Status.OK, result.error
    assert set(result.values) == {"ans"}
    ans = result.values["ans"]
    assert len(ans.repr) < 10_100 and len(ans.type) < 300 and len(ans.latex or "") < 10_100


def test_a_forged_result_cannot_carry_nan_or_lone_surrogates(box: Sandbox) -> None:
    nan = _forge(box, "{'ans': {'repr': '1', 'json': 'NAN_HERE', 'type': 'float', 'latex': None}}")
    assert nan.status is Status.ERROR and not nan.values  # not JSON: the report is refused
    lone = _forge(box, "{'ans': {'repr': '\\ud800 and \\udfff', 'json': '\\udc00', 'type': '\\ud83d', 'latex': None}}")
    ans = lone.values["ans"]
    for text in (ans.repr, ans.json, ans.type):
        text.encode("utf-8")  # raised UnicodeEncodeError before
    assert ans.repr == "\ufffd and \ufffd"


def test_the_cli_prints_strict_json_whatever_the_program_sends() -> None:
    program = ESCAPE + _FORGE.format(
        values="{'ans': {'repr': '\\ud800', 'json': 1e308 * 10, 'type': 'x', 'latex': None}}"
    )
    line = subprocess.run(
        [sys.executable, "-m", "sandbox", "run", "-"], input=program, capture_output=True, text=True, check=True
    ).stdout

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the CLI's output")

    parsed = json.loads(line, parse_constant=refuse)
    line.encode("utf-8")
    assert parsed["status"] in ("ok", "error")


def test_stat_of_unreadable_paths_still_works_as_documented(box: Sandbox) -> None:
    """Landlock does not cover stat(): a program can learn that a file exists and its size
    (documented in docs/sandbox.md, "How it isolates"), but not read it."""
    folder = Path(tempfile.mkdtemp(prefix="pal-stat-"))
    try:
        folder.chmod(0o755)
        secret = folder / "private.txt"
        secret.write_text("x" * 1234)
        secret.chmod(0o644)
        body = f"print(os.stat({str(secret)!r}).st_size)\nattempt('read', os.open, {str(secret)!r}, os.O_RDONLY)"
        result = _run(box, body)
        if WASM:  # the host's files are not in the guest's world: not even stat() finds them
            assert result.stdout == "" and "FileNotFoundError" in (result.error or "")
            return
        assert result.stdout.splitlines() == ["1234", "read DENIED PermissionError"]
    finally:
        shutil.rmtree(folder)
