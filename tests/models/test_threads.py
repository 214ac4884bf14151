"""The default thread count: one per physical core, read from the kernel's CPU topology."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from models.local import LocalModel
from models.threads import automatic_threads, cgroup_cpus, linux_cores

linux_only = pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity is Linux's")


def _topology(root: Path, cpus: dict[int, tuple[int, int]]) -> Path:
    for cpu, (package, core) in cpus.items():
        folder = root / f"cpu{cpu}" / "topology"
        folder.mkdir(parents=True)
        (folder / "physical_package_id").write_text(f"{package}\n")
        (folder / "core_id").write_text(f"{core}\n")
    return root


def test_two_hardware_threads_of_one_core_count_once(tmp_path: Path) -> None:
    # 2 packages × 2 cores × 2 hardware threads, as Linux numbers them (siblings far apart)
    layout = {cpu: (cpu // 2 % 2, cpu % 2) for cpu in range(8)}
    root = _topology(tmp_path, layout)
    assert linux_cores(range(8), root) == 4
    assert linux_cores([0, 4], root) == 1  # siblings: one core
    assert linux_cores([0, 1, 2, 3], root) == 4  # core 0 of package 0 and core 0 of package 1 differ


def test_cores_without_a_second_thread_count_each(tmp_path: Path) -> None:
    root = _topology(tmp_path, {cpu: (0, cpu) for cpu in range(2)})
    assert linux_cores([0, 1], root) == 2  # llama-cpp-python's own default would be 2 // 2 = 1


def test_unreadable_topology_is_not_guessed(tmp_path: Path) -> None:
    assert linux_cores([0, 1], tmp_path) is None


def test_a_containers_cpu_quota_caps_the_threads(tmp_path: Path) -> None:
    v2 = tmp_path / "v2"
    v2.mkdir()
    (v2 / "cpu.max").write_text("150000 100000\n")  # one and a half CPUs' time: two threads
    assert cgroup_cpus(v2) == 2
    (v2 / "cpu.max").write_text("max 100000\n")
    assert cgroup_cpus(v2) is None
    v1 = tmp_path / "v1" / "cpu"
    v1.mkdir(parents=True)
    (v1 / "cpu.cfs_quota_us").write_text("300000\n")
    (v1 / "cpu.cfs_period_us").write_text("100000\n")
    assert cgroup_cpus(v1.parent) == 3
    (v1 / "cpu.cfs_quota_us").write_text("-1\n")
    assert cgroup_cpus(v1.parent) is None
    (v1 / "cpu.cfs_quota_us").write_text("garbage\n")
    assert cgroup_cpus(v1.parent) is None
    assert cgroup_cpus(tmp_path / "none") is None


@linux_only
def test_this_machine_gets_a_thread_per_core_it_may_use() -> None:
    try:
        found = subprocess.run(["lscpu", "-p=cpu,core,socket"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no lscpu")
    allowed = os.sched_getaffinity(0)
    rows = [line.split(",") for line in found.stdout.splitlines() if not line.startswith("#")]
    cores = {(core, socket) for cpu, core, socket in rows if int(cpu) in allowed}
    assert automatic_threads() == len(cores)
    # a process allowed one CPU decodes with one thread
    cpu = min(allowed)
    one = f"import os; os.sched_setaffinity(0, {{{cpu}}}); import models.threads as t; print(t.automatic_threads())"
    root = str(Path(__file__).parents[2])
    pinned = subprocess.run(
        [sys.executable, "-c", one], capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": root}
    )
    assert pinned.stdout.strip() == "1"


def test_the_model_decodes_with_the_automatic_count_unless_told(local_model: LocalModel) -> None:
    assert local_model.settings.n_threads is None
    assert local_model._llama.n_threads == automatic_threads()
