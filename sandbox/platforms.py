"""What isolation this machine offers, layer by layer, and the level that adds up to.

Linux gets the strong level from Landlock + seccomp + rlimits together (measured: either kernel
layer alone misses a fifth to a quarter of the attack suite). macOS gets a `sandbox-exec`
deny-default profile around the worker (partial: RLIMIT_AS is ignored there). Windows has no
fork, which the warm worker needs, so no isolation is offered there yet.
"""

from __future__ import annotations

import contextlib
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


_PACKAGE_FOLDERS = ("site-packages", "dist-packages")


def read_paths() -> tuple[str, ...]:
    """What the child may read: the standard library, and each package already imported.

    Only what a program can import: the standard library's own entries (not a `site-packages`
    folder beneath it), each imported package's folder and each imported single-file module —
    never a whole `site-packages`, which holds the model's data packages and everything else the
    user installed (readable files are also files whose page cache a run could warm, see
    docs/architecture.md, "What stays shared between runs").
    """
    paths: set[str] = set()
    stdlib = os.path.dirname(os.__file__)  # the real one, also inside a virtual environment
    with contextlib.suppress(OSError):
        paths.update(entry.path for entry in os.scandir(stdlib) if entry.name not in _PACKAGE_FOLDERS)
    paths.add(str(sysconfig.get_config_var("DESTSHARED") or ""))  # lib-dynload: the extension modules
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # a frozen app keeps its modules and libraries in its own folder
        paths.add(str(bundle))
    for name, module in list(sys.modules.items()):
        location = getattr(module, "__file__", None)
        # A package's own folder, or a single-file module itself. Relative names (some bootstrap
        # modules have them) would mean the current folder: skip those.
        if "." not in name and isinstance(location, str) and os.path.isabs(location):
            package = os.path.basename(location) == "__init__.py"
            paths.add(os.path.dirname(location) if package else location)
    return tuple(sorted(p for p in paths if p and os.path.exists(p) and os.path.basename(p) not in _PACKAGE_FOLDERS))


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


BACKEND_ENV = "PAL_STUDIO_SANDBOX"
BACKEND_CHOICES = ("auto", "native", "wasm")


def default_backend(platform: str = sys.platform) -> str:
    """Linux has the kernel layers (Landlock, seccomp) the native sandbox is built on; elsewhere
    programs run in the WebAssembly guest, the one backend that isolates the same way everywhere."""
    return "native" if platform.startswith("linux") else "wasm"


def choose_backend(
    asked: str | None = None, *, environ: dict[str, str] | None = None, platform: str = sys.platform
) -> str:
    """The backend a sandbox uses: `PAL_STUDIO_SANDBOX` (so a whole test run can pick one), else the
    caller's choice (the app's setting), else the platform's default. "auto" means the default."""
    wanted = (os.environ if environ is None else environ).get(BACKEND_ENV, "").strip().lower() or (asked or "auto")
    if wanted not in BACKEND_CHOICES:
        raise ValueError(f"unknown sandbox backend {wanted!r}: choose native, wasm or auto")
    return default_backend(platform) if wanted == "auto" else wanted
