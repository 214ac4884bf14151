"""How many threads decode by default: one per physical core this process may run on.

Why not llama-cpp-python's default (half the logical CPUs): that halves the speed where a core has
no second hardware thread. Measured in the window on 2 cores without SMT (issue 33): it chose 1
thread, and a cross-checked solve of 1,291 tokens took 105 s; with 2 threads 1,296 tokens took
62 s. Decoding is bound by memory bandwidth, so a second hardware thread on the same core adds
little, and one thread per core is what llama.cpp itself recommends. In a container whose CPU
time is capped (a cgroup quota), more threads than the quota's CPUs only wait their turn.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

_SYSFS = Path("/sys/devices/system/cpu")
_CGROUPS = Path("/sys/fs/cgroup")


def automatic_threads() -> int:
    """One per physical core available (on macOS its performance cores); where that cannot be
    read (Windows), half the logical CPUs, as llama-cpp-python chooses."""
    cores = linux_cores(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    if cores is None and sys.platform == "darwin":
        cores = _macos_cores()
    cores = cores or max((os.cpu_count() or 2) // 2, 1)
    quota = cgroup_cpus() if sys.platform.startswith("linux") else None
    return min(cores, quota) if quota else cores


def cgroup_cpus(root: Path = _CGROUPS) -> int | None:
    """The CPUs' worth of time a container's quota allows (cgroup v2 `cpu.max`, v1
    `cpu.cfs_quota_us`), rounded up; None where there is no quota or it cannot be read."""
    try:
        if (root / "cpu.max").exists():
            quota, period = (root / "cpu.max").read_text().split()[:2]
        else:
            quota = (root / "cpu" / "cpu.cfs_quota_us").read_text().strip()
            period = (root / "cpu" / "cpu.cfs_period_us").read_text().strip()
        if quota in ("max", "-1"):
            return None
        return max(1, math.ceil(int(quota) / int(period)))
    except (OSError, ValueError):
        return None


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
