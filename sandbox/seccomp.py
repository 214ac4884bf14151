"""A seccomp-BPF deny-list for the sandbox child, assembled in Python.

Why not libseccomp: it would add a system library and a binding that users must have; the filter
here is a straight list of comparisons that fits on a screen, and the attack suite exercises every
rule. Denied calls fail with EPERM (so programs see a clear `PermissionError`), except `clone3`,
which fails with ENOSYS so that the C library falls back to `clone` for threads; any other
architecture's calling convention (x86 `int 0x80`, x32) kills the process.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

from sandbox._libc import IS_LINUX, prctl

_PR_SET_SECCOMP = 22
_PR_GET_SECCOMP = 21
_SECCOMP_MODE_FILTER = 2

_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000

_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JGE_K = 0x35
_JSET_K = 0x45
_RET_K = 0x06

_NR = 0
_ARCH = 4


def _arg_lo(i: int) -> int:
    return 16 + 8 * i


def _arg_hi(i: int) -> int:
    return 16 + 8 * i + 4


_CLONE_THREAD = 0x00010000
_CLONE_NEW_NAMESPACES = 0x7E020000  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
_TIOCSTI = 0x5412
_TIOCLINUX = 0x541C

# Calls denied outright. Names that an architecture lacks are simply absent from its table.
DENIED = (
    "fork", "vfork", "execve", "execveat", "socket", "socketpair", "ptrace", "process_vm_readv",
    "process_vm_writev", "process_madvise", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key",
    "request_key", "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "unshare", "setns", "setrlimit", "chmod",
    "fchmod", "fchmodat", "fchmodat2", "chown", "fchown", "lchown", "fchownat", "utime", "utimes",
    "futimesat", "utimensat", "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr",
    "fremovexattr", "mknod", "mknodat", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "kcmp",
    "personality", "modify_ldt", "iopl", "ioperm", "init_module", "finit_module", "delete_module",
    "kexec_load", "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "name_to_handle_at",
    "open_by_handle_at",
    # SysV IPC and POSIX message queues outlive the run and hold memory outside RLIMIT_AS: one run
    # could leave data for a later one (measured: 384 MB held with memory_mb=128).
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop",
    "semctl", "semtimedop", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
    "mq_getsetattr",
    # Landlock does not cover watches: inotify on /tmp showed the names of files the host made.
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "fanotify_init",
    "fanotify_mark", "migrate_pages", "move_pages",
    # The page cache is shared by every run: these probe which file pages it holds (mincore,
    # cachestat) or mark and evict them without reading (readahead, fadvise), a channel from one
    # run to the next through files both can read. preadv2's RWF_NOWAIT probes too (see below).
    "mincore", "cachestat", "readahead", "fadvise64",
)  # fmt: skip
# madvise advice values that warm or evict file pages (WILLNEED, COLD, PAGEOUT, POPULATE_READ,
# POPULATE_WRITE); the allocator's own advice (DONTNEED, FREE, HUGEPAGE …) stays allowed.
CACHE_ADVICE = (3, 20, 21, 22, 23)
# preadv2/pwritev2 with any flag (RWF_NOWAIT answers "would block" for pages not in the cache).
FLAGGED_IO = ("preadv2", "pwritev2")

# Signals may only be sent to this process itself (the first argument must be our pid).
SELF_ONLY = ("kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
# These take a pid first and reach any process of the same user (measured as nobody: another
# nobody process reniced, set to SCHED_IDLE, moved to other CPUs): only 0 (self) or our pid.
SELF_OR_ZERO = ("sched_setaffinity", "sched_setscheduler", "sched_setparam", "sched_setattr")
# (name, which-argument value that means "one process"): setpriority(PRIO_PROCESS, who, …) and
# ioprio_set(IOPRIO_WHO_PROCESS, who, …); the user- and group-wide forms are denied.
PER_PROCESS = (("setpriority", 0), ("ioprio_set", 1))
_PR_SET_PDEATHSIG = 1  # the parent-death signal ties the child to the zygote: it may not undo it

_X86_64 = {
    "shmget": 29, "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "shmdt": 67,
    "msgget": 68, "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "setpriority": 141,
    "sched_setparam": 142, "sched_setscheduler": 144, "prctl": 157, "sched_setaffinity": 203,
    "semtimedop": 220, "mq_open": 240, "mq_unlink": 241, "mq_timedsend": 242,
    "mq_timedreceive": 243, "mq_notify": 244, "mq_getsetattr": 245, "ioprio_set": 251,
    "inotify_init": 253, "inotify_add_watch": 254, "inotify_rm_watch": 255, "migrate_pages": 256,
    "move_pages": 279, "inotify_init1": 294, "fanotify_init": 300, "fanotify_mark": 301,
    "sched_setattr": 314, "mincore": 27, "madvise": 28, "readahead": 187, "fadvise64": 221,
    "preadv2": 327, "pwritev2": 328,
    "ioctl": 16, "socket": 41, "socketpair": 53, "clone": 56, "fork": 57, "vfork": 58,
    "execve": 59, "kill": 62, "chmod": 90, "fchmod": 91, "chown": 92, "fchown": 93,
    "lchown": 94, "ptrace": 101, "rt_sigqueueinfo": 129, "utime": 132, "mknod": 133,
    "personality": 135, "modify_ldt": 154, "pivot_root": 155, "setrlimit": 160, "chroot": 161,
    "acct": 163, "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
    "iopl": 172, "ioperm": 173, "init_module": 175, "delete_module": 176, "setxattr": 188,
    "lsetxattr": 189, "fsetxattr": 190, "removexattr": 197, "lremovexattr": 198,
    "fremovexattr": 199, "tkill": 200, "tgkill": 234, "utimes": 235, "kexec_load": 246,
    "add_key": 248, "request_key": 249, "keyctl": 250, "mknodat": 259, "fchownat": 260,
    "futimesat": 261, "fchmodat": 268, "unshare": 272, "utimensat": 280,
    "rt_tgsigqueueinfo": 297, "perf_event_open": 298, "prlimit64": 302,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "execveat": 322, "userfaultfd": 323,
}  # fmt: skip
_AARCH64 = {
    "inotify_init1": 26, "inotify_add_watch": 27, "inotify_rm_watch": 28, "ioprio_set": 30,
    "sched_setparam": 118, "sched_setscheduler": 119, "sched_setaffinity": 122, "setpriority": 140,
    "prctl": 167, "mq_open": 180, "mq_unlink": 181, "mq_timedsend": 182, "mq_timedreceive": 183,
    "mq_notify": 184, "mq_getsetattr": 185, "msgget": 186, "msgctl": 187, "msgrcv": 188,
    "msgsnd": 189, "semget": 190, "semctl": 191, "semtimedop": 192, "semop": 193, "shmget": 194,
    "shmctl": 195, "shmat": 196, "shmdt": 197, "migrate_pages": 238, "move_pages": 239,
    "fanotify_init": 262, "fanotify_mark": 263, "sched_setattr": 274, "readahead": 213,
    "fadvise64": 223, "mincore": 232, "madvise": 233, "preadv2": 286, "pwritev2": 287,
    "setxattr": 5, "lsetxattr": 6, "fsetxattr": 7, "removexattr": 14, "lremovexattr": 15,
    "fremovexattr": 16, "ioctl": 29, "mknodat": 33, "umount2": 39, "mount": 40,
    "pivot_root": 41, "chroot": 51, "fchmod": 52, "fchmodat": 53, "fchownat": 54, "fchown": 55,
    "utimensat": 88, "acct": 89, "personality": 92, "unshare": 97, "kexec_load": 104,
    "init_module": 105, "delete_module": 106, "ptrace": 117, "kill": 129, "tkill": 130,
    "tgkill": 131, "rt_sigqueueinfo": 138, "reboot": 142, "setrlimit": 164, "socket": 198,
    "socketpair": 199, "add_key": 217, "request_key": 218, "keyctl": 219, "clone": 220,
    "execve": 221, "swapon": 224, "swapoff": 225, "rt_tgsigqueueinfo": 240,
    "perf_event_open": 241, "prlimit64": 261, "name_to_handle_at": 264,
    "open_by_handle_at": 265, "setns": 268, "process_vm_readv": 270, "process_vm_writev": 271,
    "kcmp": 272, "finit_module": 273, "bpf": 280, "execveat": 281, "userfaultfd": 282,
}  # fmt: skip
# Numbers from 424 on are shared by every architecture.
_COMMON = {
    "pidfd_send_signal": 424, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_open": 434, "clone3": 435,
    "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442, "cachestat": 451,
    "fchmodat2": 452,
}  # fmt: skip

# (AUDIT_ARCH value, syscall table, first number of a foreign ABI sharing the arch value or None)
_ARCHES: dict[str, tuple[int, dict[str, int], int | None]] = {
    "x86_64": (0xC000003E, _X86_64 | _COMMON, 0x40000000),  # x32 numbers start here
    "aarch64": (0xC00000B7, _AARCH64 | _COMMON, None),
}


def supported_arch() -> str | None:
    """The machine name if this module has a syscall table for it."""
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
    return machine if IS_LINUX and machine in _ARCHES else None


def available() -> bool:
    """Whether the kernel offers seccomp filters (PR_GET_SECCOMP answers rather than EINVAL)."""
    if supported_arch() is None:
        return False
    try:
        prctl(_PR_GET_SECCOMP)
    except OSError:
        return False
    return True


def build_filter(arch: str, own_pid: int) -> list[tuple[int, int, int, int]]:
    """The BPF program as (code, jt, jf, k) tuples; `own_pid` is the only allowed signal target."""
    audit_arch, table, foreign_from = _ARCHES[arch]
    deny = _RET_ERRNO | errno.EPERM
    prog: list[tuple[int, int, int, int]] = [
        (_LD_W_ABS, 0, 0, _ARCH),
        (_JEQ_K, 1, 0, audit_arch),
        (_RET_K, 0, 0, _RET_KILL_PROCESS),
        (_LD_W_ABS, 0, 0, _NR),
    ]
    if foreign_from is not None:
        prog += [(_JGE_K, 0, 1, foreign_from), (_RET_K, 0, 0, _RET_KILL_PROCESS)]

    def guarded(name: str, body: list[tuple[int, int, int, int]]) -> None:
        # "if nr == name: body (which always returns)"; otherwise skip over the body.
        if name in table:
            prog.append((_JEQ_K, 0, len(body), table[name]))
            prog.extend(body)

    guarded(
        "clone",
        [
            (_LD_W_ABS, 0, 0, _arg_lo(0)),
            (_JSET_K, 2, 0, _CLONE_NEW_NAMESPACES),
            (_JSET_K, 0, 1, _CLONE_THREAD),
            (_RET_K, 0, 0, _RET_ALLOW),
            (_RET_K, 0, 0, deny),
        ],
    )
    guarded("clone3", [(_RET_K, 0, 0, _RET_ERRNO | errno.ENOSYS)])
    for name in SELF_ONLY:
        guarded(
            name,
            [
                (_LD_W_ABS, 0, 0, _arg_hi(0)),
                (_JEQ_K, 0, 3, 0),
                (_LD_W_ABS, 0, 0, _arg_lo(0)),
                (_JEQ_K, 0, 1, own_pid),
                (_RET_K, 0, 0, _RET_ALLOW),
                (_RET_K, 0, 0, deny),
            ],
        )
    guarded(
        "ioctl",
        [
            (_LD_W_ABS, 0, 0, _arg_lo(1)),
            (_JEQ_K, 2, 0, _TIOCSTI),
            (_JEQ_K, 1, 0, _TIOCLINUX),
            (_RET_K, 0, 0, _RET_ALLOW),
            (_RET_K, 0, 0, deny),
        ],
    )

    def self_or_zero(arg: int, on_fail: int) -> list[tuple[int, int, int, int]]:
        # "argument `arg` is 0 or own_pid, else jump `on_fail` instructions past this block".
        return [
            (_LD_W_ABS, 0, 0, _arg_hi(arg)),
            (_JEQ_K, 0, 3 + on_fail, 0),
            (_LD_W_ABS, 0, 0, _arg_lo(arg)),
            (_JEQ_K, 1, 0, 0),
            (_JEQ_K, 0, on_fail, own_pid),
        ]

    allow_else_deny = [(_RET_K, 0, 0, _RET_ALLOW), (_RET_K, 0, 0, deny)]
    # reading our own limits (new_limit == NULL) is fine; changing them, or anyone else's, is not
    guarded(
        "prlimit64",
        [
            *self_or_zero(0, 5),
            (_LD_W_ABS, 0, 0, _arg_lo(2)),
            (_JEQ_K, 0, 3, 0),
            (_LD_W_ABS, 0, 0, _arg_hi(2)),
            (_JEQ_K, 0, 1, 0),
            *allow_else_deny,
        ],
    )
    for name in SELF_OR_ZERO:
        guarded(name, [*self_or_zero(0, 1), *allow_else_deny])
    for name, which in PER_PROCESS:
        guarded(
            name,
            [
                (_LD_W_ABS, 0, 0, _arg_lo(0)),
                (_JEQ_K, 0, 6, which),
                *self_or_zero(1, 1),
                *allow_else_deny,
            ],
        )
    guarded(
        "prctl",
        [(_LD_W_ABS, 0, 0, _arg_lo(0)), (_JEQ_K, 1, 0, _PR_SET_PDEATHSIG), *allow_else_deny],
    )
    guarded(
        "madvise",
        [
            (_LD_W_ABS, 0, 0, _arg_lo(2)),
            *[(_JEQ_K, len(CACHE_ADVICE) - i, 0, advice) for i, advice in enumerate(CACHE_ADVICE)],
            *allow_else_deny,
        ],
    )
    for name in FLAGGED_IO:  # flags are the sixth argument on both tables
        guarded(
            name,
            [
                (_LD_W_ABS, 0, 0, _arg_lo(5)),
                (_JEQ_K, 0, 3, 0),
                (_LD_W_ABS, 0, 0, _arg_hi(5)),
                (_JEQ_K, 0, 1, 0),
                *allow_else_deny,
            ],
        )
    for name in DENIED:
        guarded(name, [(_RET_K, 0, 0, deny)])
    prog.append((_RET_K, 0, 0, _RET_ALLOW))
    return prog


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install(own_pid: int) -> None:
    """Load the filter into this (single-threaded) process. Needs no_new_privs set first."""
    arch = supported_arch()
    if arch is None:
        raise OSError(errno.ENOSYS, "no seccomp syscall table for this architecture")
    prog = build_filter(arch, own_pid)
    raw = b"".join(struct.pack("=HBBI", *ins) for ins in prog)
    buf = ctypes.create_string_buffer(raw, len(raw))
    fprog = _SockFprog(len(prog), ctypes.cast(buf, ctypes.c_void_p))
    prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog))
