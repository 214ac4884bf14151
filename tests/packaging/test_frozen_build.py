"""The one-folder PyInstaller build: unpacked on a fresh machine it assembles its model and answers a
question (sandbox worker started from the frozen executable), and renders its window. Slow: the
build takes a few minutes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def frozen_app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("frozen")
    subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "ERROR",
         "--distpath", str(out / "dist"), "--workpath", str(out / "work"), str(ROOT / "packaging" / "pal-studio.spec")],
        check=True, capture_output=True, timeout=1800,
    )  # fmt: skip
    return out / "dist" / "pal-studio" / "pal-studio"


@pytest.mark.slow
def test_unpacked_folder_answers_on_a_fresh_machine(frozen_app: Path, tmp_path: Path) -> None:
    # A fresh data folder: the bundle assembles the model from its own chunks, then answers,
    # its sandbox worker started from the frozen executable.
    env = {**os.environ, "PAL_STUDIO_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        [str(frozen_app), "ask", "--json", "What is 5 + 2 * 3?"],
        capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["answer"], data["isolation"]) == ("11", "strong")
    assert (tmp_path / "data" / "models" / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf").stat().st_size == 1_117_320_768


@pytest.mark.slow
def test_frozen_app_screenshot(frozen_app: Path, tmp_path: Path) -> None:
    shot = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [str(frozen_app), "--screenshot", str(shot)], env=env, capture_output=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    assert shot.read_bytes()[:4] == b"\x89PNG"
