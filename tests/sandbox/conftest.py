"""Shared fixtures: one real sandbox worker for the module's tests, and containment checks."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from sandbox import Sandbox, platforms

# Reaches the real os/ctypes modules past the import guard the way an attacker would, so that
# the attack tests exercise the isolation layers rather than the convenience guard. In the
# WebAssembly guest there is no ctypes (nor any way to make a system call but WASI's imports):
# `ctypes` and `libc` are None there, and the tests that need them say why they cannot apply.
ESCAPE = """
def _escape():
    for cls in ().__class__.__base__.__subclasses__():
        found = getattr(getattr(cls, "__init__", None), "__globals__", {}).get("sys")
        if found is not None and hasattr(found, "modules"):
            return found
sys = _escape()
os = sys.modules["os"]
try:
    ctypes = sys.modules.get("ctypes") or sys.modules["importlib"].import_module("ctypes")
    libc = ctypes.CDLL(None, use_errno=True)
except Exception:
    ctypes = libc = None

def real_import(name):
    return sys.modules["importlib"].import_module(name)

def call(fn, *args):
    ctypes.set_errno(0)
    result = fn(*args)
    return result, ctypes.get_errno()

def to_worker(data):
    # Bytes up the report channel as a program can send them: natively it owns fd 3; in WebAssembly
    # the door is the channel, one frame per line (an emulation request as is, the rest as a report).
    door = sys.modules.get("_host")
    if door is None:
        while data:
            data = data[os.write(3, data):]
        return
    for line in data.split(b"\\n"):
        if line:
            door.call(line if line.startswith(b'{"op": "emulate"') else b'{"op": "report", "report": ' + line + b'}')

def attempt(label, fn, *args):
    try:
        fn(*args)
        print(label, "ALLOWED")
    except Exception as exc:
        print(label, "DENIED", type(exc).__name__)
"""


BACKEND = platforms.choose_backend()
WASM = BACKEND == "wasm"


def native_only(reason: str) -> pytest.MarkDecorator:
    """An attack that cannot apply to the WebAssembly guest, with the reason (shown by `-ra`)."""
    return pytest.mark.skipif(WASM, reason=f"cannot apply to the WebAssembly backend: {reason}")


NO_SYSCALLS = "the guest has no ctypes and no system calls, only the WASI imports wasmtime gives it"
NO_PROCESSES = "the guest is not a process: it runs inside the worker, which no program can see"


@pytest.fixture(scope="module")
def box() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.start()
        yield sandbox


def session_members(worker_pid: int, zygote_pid: int | None = None) -> list[int]:
    """Processes in the worker's session other than the worker and its zygote (children would be)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (worker_pid, zygote_pid):
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if int(fields[3]) == worker_pid:  # field 6 of stat: session id
            found.append(int(entry))
    return found


def assert_contained(box: Sandbox) -> None:
    worker = box.worker_pid
    assert worker is not None, "the worker died"
    assert session_members(worker, box.zygote_pid) == [], "a process was left behind"
