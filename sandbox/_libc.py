"""Thin ctypes access to the C library calls the standard library does not expose.

Only `prctl` and the raw `syscall` entry point are needed (Landlock and seccomp have no glibc
wrappers on older systems); errno is read back so callers can raise an `OSError` that says why.
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from typing import Any


@functools.cache
def libc() -> ctypes.CDLL:
    """Return the process's C library, loaded once (it is already mapped, so no file is read)."""
    return ctypes.CDLL(None, use_errno=True)


def syscall(number: int, *args: Any) -> int:
    """Call a raw system call and raise `OSError` on failure."""
    fn = libc().syscall
    fn.restype = ctypes.c_long
    result = int(fn(ctypes.c_long(number), *args))
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def prctl(option: int, arg2: Any = 0, arg3: Any = 0, arg4: Any = 0, arg5: Any = 0) -> int:
    """Call prctl(2) and raise `OSError` on failure."""
    fn = libc().prctl
    fn.restype = ctypes.c_int
    result = int(
        fn(
            ctypes.c_int(option),
            _as_ulong(arg2),
            _as_ulong(arg3),
            _as_ulong(arg4),
            _as_ulong(arg5),
        )
    )
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return result


def _as_ulong(value: Any) -> Any:
    return ctypes.c_ulong(value) if isinstance(value, int) else value


IS_LINUX = sys.platform.startswith("linux")
