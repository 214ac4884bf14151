"""Landlock (Linux ≥ 5.13): the child's file-system, TCP and scoping rules.

A small ctypes module rather than a dependency: the three system calls and their structures are
stable kernel ABI, and the only published binding was a pre-release. Rights a kernel does not know
are masked out by ABI version, so one code path serves every kernel; `abi_version()` tells the
doctor what is available.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterable

from sandbox._libc import IS_LINUX, syscall

_CREATE_RULESET = 444  # the same numbers on x86-64 and arm64 (asm-generic table)
_ADD_RULE = 445
_RESTRICT_SELF = 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1

FS_EXECUTE = 1 << 0
FS_WRITE_FILE = 1 << 1
FS_READ_FILE = 1 << 2
FS_READ_DIR = 1 << 3
_FS_ABI1 = (1 << 13) - 1  # execute … make_sym
_FS_REFER = 1 << 13  # ABI 2
_FS_TRUNCATE = 1 << 14  # ABI 3
_FS_IOCTL_DEV = 1 << 15  # ABI 5
_NET_BIND_TCP = 1 << 0  # ABI 4
_NET_CONNECT_TCP = 1 << 1
_SCOPE_ABSTRACT_UNIX = 1 << 0  # ABI 6
_SCOPE_SIGNAL = 1 << 1

READ_ONLY = FS_READ_FILE | FS_READ_DIR


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi_version() -> int:
    """The kernel's Landlock ABI version, or 0 when Landlock is missing or disabled."""
    if not IS_LINUX:
        return 0
    try:
        return syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    except OSError as exc:
        if exc.errno in (errno.ENOSYS, errno.EOPNOTSUPP):
            return 0
        raise


def handled_rights(abi: int) -> tuple[int, int, int]:
    """(fs, net, scope) rights the ruleset handles, i.e. denies unless a rule allows them."""
    fs = _FS_ABI1
    if abi >= 2:
        fs |= _FS_REFER
    if abi >= 3:
        fs |= _FS_TRUNCATE
    if abi >= 5:
        fs |= _FS_IOCTL_DEV
    net = (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0
    scope = (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0
    return fs, net, scope


def restrict_to_read_only(paths: Iterable[str], abi: int) -> None:
    """Confine this process (and any it could create) to reading below `paths`.

    Nothing may be written, created, executed or removed anywhere; TCP bind/connect is denied
    (ABI ≥ 4); signals and abstract UNIX sockets cannot reach outside the domain (ABI ≥ 6).
    The caller must have set no_new_privs first.
    """
    fs, net, scope = handled_rights(abi)
    attr = _RulesetAttr(fs, net, scope)
    ruleset_fd = syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), 0)
    try:
        for path in paths:
            _allow_beneath(ruleset_fd, path, READ_ONLY)
        syscall(_RESTRICT_SELF, ruleset_fd, 0)
    finally:
        os.close(ruleset_fd)


def _allow_beneath(ruleset_fd: int, path: str, access: int) -> None:
    """Allow `access` below a folder, or on one file (where only file rights apply)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a missing library folder is simply not granted
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            access &= FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV
        rule = _PathBeneathAttr(access, fd)
        syscall(_ADD_RULE, ruleset_fd, _RULE_PATH_BENEATH, ctypes.byref(rule), 0)
    finally:
        os.close(fd)
