"""What isolation this machine offers, layer by layer, and the level that adds up to.

Linux gets the strong level from Landlock + seccomp + rlimits together (measured: either kernel
layer alone misses a fifth to a quarter of the attack suite). macOS gets a `sandbox-exec`
deny-default profile around the worker (partial: RLIMIT_AS is ignored there). Windows has no
fork, which the warm worker needs, so no isolation is offered there yet.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from dataclasses import dataclass

from sandbox import landlock, seccomp
from sandbox.result import Isolation


@dataclass(frozen=True)
class Layer:
    name: str
    active: bool
    detail: str


def linux_layers(landlock_abi: int, seccomp_ok: bool, is_root: bool) -> list[Layer]:
    if landlock_abi:
        _, net, scope = landlock.handled_rights(landlock_abi)
        extras = [what for what, on in (("TCP denied", net), ("signals and abstract sockets scoped", scope)) if on]
        detail = f"ABI {landlock_abi}: read-only Python folders, no writes, no execute"
        detail += "".join(f", {extra}" for extra in extras)
        lands = Layer("landlock", True, detail)
    else:
        lands = Layer("landlock", False, "not offered by this kernel (Linux ≥ 5.13 with landlock in the LSM list)")
    arch = seccomp.supported_arch()
    if seccomp_ok:
        sec = Layer("seccomp", True, f"deny-list filter for {arch}: processes, exec, sockets, ptrace, IPC, …")
    elif arch is None:
        sec = Layer("seccomp", False, "no syscall table for this processor architecture")
    else:
        sec = Layer("seccomp", False, "not offered by this kernel")
    return [
        Layer("process", True, "fresh fork of a pristine zygote per run, empty environment, cwd /"),
        Layer("rlimits", True, "address space, CPU seconds, file size 0, no core, 32 open files, 64 tasks"),
        Layer(
            "root drop",
            is_root,
            "runs as a user of its own with no capabilities" if is_root else "not running as root",
        ),
        lands,
        sec,
    ]


def level(layers: list[Layer]) -> Isolation:
    active = {layer.name for layer in layers if layer.active}
    kernel = active & {"landlock", "seccomp", "sandbox-exec"}
    if {"landlock", "seccomp"} <= kernel:
        return Isolation.STRONG
    return Isolation.PARTIAL if kernel else Isolation.NONE


def read_paths() -> tuple[str, ...]:
    """Folders the child may read: the standard library and the packages already imported."""
    paths = {sysconfig.get_path(key) for key in ("stdlib", "platstdlib")}
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # a frozen app keeps its modules and libraries in its own folder
        paths.add(str(bundle))
    for name, module in list(sys.modules.items()):
        location = getattr(module, "__file__", None)
        # A package's own folder, or the folder holding a single-file module. Relative names
        # (some bootstrap modules have them) would mean the current folder: skip those.
        if "." not in name and isinstance(location, str) and os.path.isabs(location):
            paths.add(os.path.dirname(location))
    return tuple(sorted(p for p in paths if p and os.path.isdir(p)))


def macos_profile(readable: tuple[str, ...]) -> str:
    """A deny-default `sandbox-exec` profile: read the given folders, nothing else."""
    rules = "\n".join(f'  (subpath "{_escape(path)}")' for path in readable)
    return (
        "(version 1)\n(deny default)\n(allow process-fork)\n(allow signal (target self))\n"
        "(allow sysctl-read)\n(allow file-read-metadata)\n"
        f"(allow file-read*\n{rules}\n"
        '  (literal "/dev/null") (literal "/dev/urandom"))\n'
        '(allow file-write-data (literal "/dev/null"))\n'
    )


def _escape(path: str) -> str:
    return path.replace("\\", "\\\\").replace('"', '\\"')


def macos_sandbox_exec() -> str | None:
    return shutil.which("sandbox-exec") if sys.platform == "darwin" else None
