"""Shared fixtures: one real sandbox worker for the module's tests, and containment checks."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from sandbox import Sandbox

# Reaches the real os/ctypes modules past the import guard the way an attacker would, so that
# the attack tests exercise the kernel layers rather than the convenience guard.
ESCAPE = """
def _escape():
    for cls in ().__class__.__base__.__subclasses__():
        if cls.__name__ == "_wrap_close":
            return cls.__init__.__globals__["sys"]
sys = _escape()
os = sys.modules["os"]
ctypes = sys.modules["ctypes"]
libc = ctypes.CDLL(None, use_errno=True)

def real_import(name):
    return sys.modules["importlib"].import_module(name)

def call(fn, *args):
    ctypes.set_errno(0)
    result = fn(*args)
    return result, ctypes.get_errno()

def attempt(label, fn, *args):
    try:
        fn(*args)
        print(label, "ALLOWED")
    except Exception as exc:
        print(label, "DENIED", type(exc).__name__)
"""


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
