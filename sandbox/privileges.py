"""Resource limits and the drop from root, applied in the child before the program runs."""

from __future__ import annotations

import math
import os
import resource
import signal

from sandbox._libc import prctl

_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_NOBODY = 65534
OPEN_FILES = 32


def apply_rlimits(time_s: float, memory_mb: int) -> None:
    """Hard = soft, so the program cannot raise them again.

    CPU seconds back up the wall-clock deadline that the worker enforces (a second of slack so
    the deadline, which reports "timeout" cleanly, normally fires first). File size 0 forbids
    writing any file even if another layer failed; SIGXFSZ is ignored so such a write fails with
    an error instead of killing the program.
    """
    cpu = math.ceil(time_s) + 1
    limits = {
        resource.RLIMIT_AS: memory_mb * 1024 * 1024,
        resource.RLIMIT_CPU: cpu,
        resource.RLIMIT_FSIZE: 0,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_NOFILE: OPEN_FILES,
        resource.RLIMIT_MEMLOCK: 0,
        resource.RLIMIT_MSGQUEUE: 0,
    }
    for which, value in limits.items():
        resource.setrlimit(which, (value, value))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def nobody_ids() -> tuple[int, int]:
    """uid and gid of the unprivileged account (looked up in the worker, before any lockdown)."""
    try:
        import pwd

        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except (ImportError, KeyError):
        return _NOBODY, _NOBODY


def drop_root(uid: int, gid: int) -> None:
    """Give up root: empty the capability bounding and ambient sets, then switch uid and gid.

    Changing all uids away from 0 clears the permitted and effective sets, so nothing is left;
    `capabilities_cleared()` proves it from inside.
    """
    cap = 0
    while True:
        try:
            prctl(_PR_CAPBSET_DROP, cap)
        except OSError:
            break  # EINVAL: past the last capability this kernel knows
        cap += 1
    prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)


def capabilities_cleared() -> bool:
    """True when the effective and permitted capability sets are both empty."""
    fields = {}
    with open("/proc/self/status", "rb") as status:  # binary: no codec may be imported any more
        for line in status:
            key, _, value = line.partition(b":")
            fields[key] = value.strip()
    return int(fields.get(b"CapEff", b"1"), 16) == 0 and int(fields.get(b"CapPrm", b"1"), 16) == 0


def set_no_new_privs() -> None:
    prctl(_PR_SET_NO_NEW_PRIVS, 1)
