"""The seccomp program, evaluated by a small BPF interpreter: every rule decides as intended."""

from __future__ import annotations

import errno
import struct

import pytest

from sandbox import seccomp

ALLOW, KILL = 0x7FFF0000, 0x80000000
EPERM = 0x00050000 | errno.EPERM
ENOSYS = 0x00050000 | errno.ENOSYS
OWN_PID = 4242


def evaluate(prog: list[tuple[int, int, int, int]], arch: int, nr: int, args: tuple[int, ...] = ()) -> int:
    """Run a classic-BPF seccomp program (the opcodes the filter uses) on one system call."""
    full = (*args, *([0] * (6 - len(args))))
    data = struct.pack("<iIQ6Q", nr, arch, 0, *(a & (2**64 - 1) for a in full))
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = prog[pc]
        if code == 0x20:
            acc = struct.unpack_from("<I", data, k)[0]
            pc += 1
        elif code in (0x15, 0x35, 0x45):
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += 1 + (jt if taken else jf)
        elif code == 0x06:
            return k
        else:
            raise AssertionError(f"unexpected opcode {code:#x}")


X86 = 0xC000003E
ARM = 0xC00000B7


@pytest.fixture(scope="module")
def x86() -> list[tuple[int, int, int, int]]:
    return seccomp.build_filter("x86_64", OWN_PID)


@pytest.mark.parametrize(
    ("nr", "args", "expected"),
    [
        (0, (), ALLOW),  # read
        (1, (), ALLOW),  # write
        (9, (), ALLOW),  # mmap
        (57, (), EPERM),  # fork
        (59, (), EPERM),  # execve
        (41, (2, 1, 0), EPERM),  # socket
        (101, (), EPERM),  # ptrace
        (425, (), EPERM),  # io_uring_setup
        (56, (0x3D0F00,), ALLOW),  # clone for a thread (CLONE_THREAD among the flags)
        (56, (0x11,), EPERM),  # clone for a process
        (56, (0x10000 | 0x10000000,), EPERM),  # a thread in a new user namespace
        (435, (), ENOSYS),  # clone3: the C library falls back to clone
        (62, (OWN_PID, 9), ALLOW),  # kill self
        (62, (OWN_PID + 1, 9), EPERM),  # kill another process
        (62, (-1, 9), EPERM),  # kill everything
        (62, (0, 9), EPERM),  # kill the process group
        (234, (OWN_PID, 77, 6), ALLOW),  # tgkill within this process (abort)
        (234, (1, 1, 9), EPERM),
        (16, (0, 0x5401), ALLOW),  # ioctl TCGETS
        (16, (0, 0x5412), EPERM),  # ioctl TIOCSTI
        (302, (0, 9, 0, 1234), ALLOW),  # prlimit64 reading
        (302, (OWN_PID, 9, 0, 1234), ALLOW),  # prlimit64 reading, by pid
        (302, (0, 9, 1234, 0), EPERM),  # prlimit64 setting
        (302, (OWN_PID + 1, 9, 0, 1234), EPERM),  # prlimit64 reading another process
        (29, (0, 4096, 0o1666), EPERM),  # shmget
        (68, (), EPERM),  # msgget
        (64, (), EPERM),  # semget
        (240, (), EPERM),  # mq_open
        (294, (0,), EPERM),  # inotify_init1
        (300, (), EPERM),  # fanotify_init
        (141, (0, 0, 5), ALLOW),  # setpriority(PRIO_PROCESS, self)
        (141, (0, OWN_PID, 5), ALLOW),
        (141, (0, OWN_PID + 1, 19), EPERM),  # another process
        (141, (2, 0, 19), EPERM),  # PRIO_USER: every process of the user
        (141, (1, 0, 19), EPERM),  # PRIO_PGRP
        (141, (0, (1 << 32) | OWN_PID, 19), EPERM),  # high bits set: refused rather than truncated
        (203, (0, 8, 0), ALLOW),  # sched_setaffinity(self)
        (203, (OWN_PID + 1, 8, 0), EPERM),
        (144, (OWN_PID + 1, 5, 0), EPERM),  # sched_setscheduler(other, SCHED_IDLE)
        (142, (OWN_PID + 1, 0), EPERM),  # sched_setparam
        (314, (OWN_PID + 1, 0, 0), EPERM),  # sched_setattr
        (251, (1, 0, 7), ALLOW),  # ioprio_set(IOPRIO_WHO_PROCESS, self)
        (251, (1, OWN_PID + 1, 7), EPERM),
        (251, (3, 0, 7), EPERM),  # IOPRIO_WHO_USER
        (157, (15, 0), ALLOW),  # prctl(PR_SET_NAME)
        (157, (1, 0), EPERM),  # prctl(PR_SET_PDEATHSIG): the tie to the zygote stays
        (160, (), EPERM),  # setrlimit
        (90, (), EPERM),  # chmod
        (280, (), EPERM),  # utimensat
        (0x40000000 + 59, (), KILL),  # x32 execve
        # the page cache: probes and evictions denied, the allocator's madvise and plain I/O allowed
        (27, (), EPERM),  # mincore
        (451, (), EPERM),  # cachestat
        (187, (), EPERM),  # readahead
        (221, (3, 0, 0, 4), EPERM),  # fadvise64(POSIX_FADV_DONTNEED)
        (28, (0, 4096, 3), EPERM),  # madvise(MADV_WILLNEED)
        (28, (0, 4096, 20), EPERM),  # MADV_COLD
        (28, (0, 4096, 21), EPERM),  # MADV_PAGEOUT
        (28, (0, 4096, 22), EPERM),  # MADV_POPULATE_READ
        (28, (0, 4096, 23), EPERM),  # MADV_POPULATE_WRITE
        (28, (0, 4096, 4), ALLOW),  # MADV_DONTNEED (malloc's trim)
        (28, (0, 4096, 14), ALLOW),  # MADV_HUGEPAGE (numpy)
        (327, (3, 0, 1, 0, 0, 0), ALLOW),  # preadv2 without flags
        (327, (3, 0, 1, 0, 0, 8), EPERM),  # preadv2(RWF_NOWAIT)
        (327, (3, 0, 1, 0, 0, 1 << 33), EPERM),  # a flag in the high word
        (328, (3, 0, 1, 0, 0, 4), EPERM),  # pwritev2 with a flag
    ],
)
def test_x86_64_rules(x86: list[tuple[int, int, int, int]], nr: int, args: tuple[int, ...], expected: int) -> None:
    assert evaluate(x86, X86, nr, args) == expected


def test_foreign_architecture_is_killed(x86: list[tuple[int, int, int, int]]) -> None:
    assert evaluate(x86, 0x40000003, 2) == KILL  # i386 fork through int 0x80


def test_arm64_table() -> None:
    prog = seccomp.build_filter("aarch64", OWN_PID)
    assert evaluate(prog, ARM, 63) == ALLOW  # read
    assert evaluate(prog, ARM, 221) == EPERM  # execve
    assert evaluate(prog, ARM, 220, (0x11,)) == EPERM  # clone for a process
    assert evaluate(prog, ARM, 198) == EPERM  # socket
    assert evaluate(prog, ARM, 194) == EPERM  # shmget
    assert evaluate(prog, ARM, 26) == EPERM  # inotify_init1
    assert evaluate(prog, ARM, 140, (0, OWN_PID + 1, 19)) == EPERM  # setpriority on another process
    assert evaluate(prog, ARM, 140, (0, 0, 19)) == ALLOW
    assert evaluate(prog, ARM, 232) == EPERM  # mincore
    assert evaluate(prog, ARM, 223) == EPERM  # fadvise64
    assert evaluate(prog, ARM, 213) == EPERM  # readahead
    assert evaluate(prog, ARM, 233, (0, 4096, 21)) == EPERM  # madvise(MADV_PAGEOUT)
    assert evaluate(prog, ARM, 233, (0, 4096, 4)) == ALLOW  # madvise(MADV_DONTNEED)
    assert evaluate(prog, ARM, 286, (3, 0, 1, 0, 0, 8)) == EPERM  # preadv2(RWF_NOWAIT)
    assert evaluate(prog, ARM, 286, (3, 0, 1, 0, 0, 0)) == ALLOW
    assert evaluate(prog, X86, 0) == KILL


def test_every_jump_stays_inside_the_program(x86: list[tuple[int, int, int, int]]) -> None:
    for pc, (code, jt, jf, _k) in enumerate(x86):
        if code in (0x15, 0x35, 0x45):
            assert pc + 1 + max(jt, jf) < len(x86)
    assert x86[-1] == (0x06, 0, 0, ALLOW)
    assert len(x86) < 4096
