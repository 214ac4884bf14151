"""`python -m sandbox`: the one-JSON-line contract, on a file and on standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import WASM


def sandbox_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def one_json_line(stdout: str) -> dict[str, Any]:
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    data = json.loads(lines[0])
    assert set(data) >= {"status", "stdout", "stderr", "error", "values", "duration_s", "isolation", "trace"}
    return dict(data)


def test_run_a_file(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text("total = 5 + 2 * 3\nans = total\nprint(total)\n")
    done = sandbox_cli("run", "--var", "ans", "--var", "total", str(program))
    assert done.returncode == 0, done.stderr
    data = one_json_line(done.stdout)
    assert data["status"] == "ok"
    assert data["stdout"] == "11\n"
    assert data["values"]["ans"] == {"repr": "11", "json": 11, "type": "int", "latex": None}
    assert data["values"]["total"]["json"] == 11
    assert data["isolation"] == "strong"


def test_run_stdin_with_limits() -> None:
    done = sandbox_cli("run", "--time", "0.5", "-", stdin="while True:\n    pass\n")
    assert done.returncode == 0
    data = one_json_line(done.stdout)
    assert data["status"] == "timeout"
    assert data["duration_s"] < 1.5


def test_failing_program_still_exits_zero() -> None:
    done = sandbox_cli("run", "-", stdin="1/0")
    assert done.returncode == 0
    assert one_json_line(done.stdout)["error_line"] == 1


def test_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    done = sandbox_cli("run", str(tmp_path / "missing.py"))
    assert done.returncode == 2
    assert "cannot read the program" in done.stderr
    assert done.stdout == ""


def test_doctor() -> None:
    done = sandbox_cli("doctor")
    assert done.returncode == 0, done.stderr
    assert "isolation: strong" in done.stdout
    if WASM:
        assert "backend: wasm" in done.stdout and "[x] webassembly" in done.stdout
    else:
        assert "backend: native" in done.stdout
        assert "[x] seccomp" in done.stdout and "[x] landlock" in done.stdout
    assert "test run: ok" in done.stdout
