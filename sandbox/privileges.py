"""Resource limits and the drop from root, applied in the child before the program runs."""

from __future__ import annotations

import math
import os
import signal

from sandbox._libc import prctl

_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_NOBODY = 65534
OPEN_FILES = 32
THREADS = 64  # threads and processes of the sandbox user, the program's own included
# Each child runs as a user of its own, BASE + its pid: no other process on the machine has that
# uid, so nothing the program does as "its user" (signals, priorities, RLIMIT_NPROC's count)
# reaches another process, earlier or concurrent sandbox children included. Pids are unique among
# live processes, so the uids are too; the range sits above the ones distributions hand out.
UID_BASE = 3_000_000_000


def apply_rlimits(time_s: float, memory_mb: int, tasks: int = THREADS) -> None:
    """Hard = soft, so the program cannot raise them again.

    CPU seconds back up the wall-clock deadline that the worker enforces (a second of slack so
    the deadline, which reports "timeout" cleanly, normally fires first). File size 0 forbids
    writing any file even if another layer failed; SIGXFSZ is ignored so such a write fails with
    an error instead of killing the program. RLIMIT_NPROC counts every task of the real uid: with
    a uid of its own that is exactly the program's threads (a raw clone made 2,000 before).
    """
    import resource  # Unix only: imported here so that `sandbox` (THREADS) imports on Windows too

    cpu = math.ceil(time_s) + 1
    limits = {
        resource.RLIMIT_AS: memory_mb * 1024 * 1024,
        resource.RLIMIT_CPU: cpu,
        resource.RLIMIT_FSIZE: 0,
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_NOFILE: OPEN_FILES,
        resource.RLIMIT_MEMLOCK: 0,
        resource.RLIMIT_MSGQUEUE: 0,
        resource.RLIMIT_NPROC: tasks,
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


def tasks_of_user(uid: int) -> int:
    """How many tasks (threads) the user runs now: the base of RLIMIT_NPROC when the sandbox
    cannot give its children a uid of their own (it is not root)."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as status:
                fields = dict(line.split(b":", 1) for line in status if b":" in line)
        except OSError:
            continue
        if int(fields.get(b"Uid", b"-1 ").split()[0]) == uid:
            count += int(fields.get(b"Threads", b"1").strip() or 1)
    return count


def drop_root(fallback_uid: int, fallback_gid: int) -> int:
    """Give up root: empty the capability bounding and ambient sets, then switch to a uid of this
    child's own (`UID_BASE` + pid), or to the fallback (nobody) where that uid cannot exist (a user
    namespace that maps only a few ids). Returns the uid now in force.

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
    own = UID_BASE + os.getpid()
    try:
        os.setresgid(own, own, own)
        os.setresuid(own, own, own)
        return own
    except OSError:  # EINVAL: the id is not mapped here; gid may have changed, uid has not
        os.setresgid(fallback_gid, fallback_gid, fallback_gid)
        os.setresuid(fallback_uid, fallback_uid, fallback_uid)
        return fallback_uid


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
