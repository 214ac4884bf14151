"""How many threads decode by default: one per physical core this process may run on.

Why not llama-cpp-python's default (half the logical CPUs): that halves the speed where a core has
no second hardware thread. Measured in the window on 2 cores without SMT (issue 33): it chose 1
thread, and a cross-checked solve of 1,291 tokens took 105 s; with 2 threads 1,296 tokens took
62 s. Decoding is bound by memory bandwidth, so a second hardware thread on the same core adds
little, and one thread per core is what llama.cpp itself recommends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

_SYSFS = Path("/sys/devices/system/cpu")


def automatic_threads() -> int:
    """One per physical core available (on macOS its performance cores); where that cannot be
    read (Windows), half the logical CPUs, as llama-cpp-python chooses."""
    cores = linux_cores(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    if cores is None and sys.platform == "darwin":
        cores = _macos_cores()
    return cores or max((os.cpu_count() or 2) // 2, 1)


def linux_cores(cpus: Iterable[int], root: Path = _SYSFS) -> int | None:
    """The physical cores `cpus` (logical CPU numbers) lie on, by the kernel's topology files;
    None when they cannot be read."""
    cores = set()
    try:
        for cpu in cpus:
            topology = root / f"cpu{cpu}" / "topology"
            package = (topology / "physical_package_id").read_text().strip()
            cores.add((package, (topology / "core_id").read_text().strip()))
    except OSError:
        return None
    return len(cores) or None


def _macos_cores() -> int | None:
    """The performance cores (Apple silicon), else all physical cores (Intel Macs)."""
    for key in ("hw.perflevel0.physicalcpu", "hw.physicalcpu"):
        try:
            found = subprocess.run(["sysctl", "-n", key], capture_output=True, text=True, timeout=5, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        if found.returncode == 0 and found.stdout.strip().isdigit():
            return int(found.stdout.strip()) or None
    return None
