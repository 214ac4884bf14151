"""One window per data folder: a second start brings the first window to the front and ends
(real local sockets; the last test starts two real `pal-studio` processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtCore import QDir
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.ui.single_instance import FirstWindow, handed_over, server_name

ROOT = Path(__file__).resolve().parents[3]


class _Window(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.brought = 0

    def activateWindow(self) -> None:  # noqa: N802 (Qt's name)
        self.brought += 1
        super().activateWindow()


def test_a_second_start_brings_the_first_window_forward(qtbot: QtBot, tmp_path: Path) -> None:
    window = _Window()
    qtbot.addWidget(window)
    name = server_name(tmp_path / "data")
    assert name == server_name(tmp_path / "data" / ".." / "data") and name != server_name(tmp_path / "other")
    assert not handed_over(name)  # nothing listens yet: this start is the first
    FirstWindow(name, window)
    assert handed_over(name)
    qtbot.waitUntil(lambda: window.brought == 1)
    assert not handed_over(server_name(tmp_path / "other"))  # another data folder: its own window


def test_a_socket_left_by_a_crashed_window_does_not_stop_the_next_one(qtbot: QtBot, tmp_path: Path) -> None:
    name = server_name(tmp_path / "crashed")
    left = Path(QDir.tempPath()) / name
    left.write_text("")  # what a killed window leaves: the socket's file, with no one listening
    try:
        assert not handed_over(name)
        window = _Window()
        qtbot.addWidget(window)
        FirstWindow(name, window)
        assert handed_over(name)
        qtbot.waitUntil(lambda: window.brought == 1)
    finally:
        left.unlink(missing_ok=True)


def test_starting_the_app_twice_leaves_one_window(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    unreachable = {"version": 1, "settings": {"backend_url": "http://127.0.0.1:9"}}  # no model to load
    (data / "settings.json").write_text(json.dumps(unreachable))
    (data / "first-run-done").write_text("")
    env = {**os.environ, "PAL_STUDIO_DATA_DIR": str(data), "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    first = subprocess.Popen([sys.executable, "-m", "app"], env=env, cwd=tmp_path)
    try:
        socket = Path(QDir.tempPath()) / server_name(data)
        deadline = time.monotonic() + 60
        while not socket.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert socket.exists() and first.poll() is None
        second = subprocess.run(
            [sys.executable, "-m", "app"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode == 0 and "already open" in second.stdout, second
        assert first.poll() is None  # the first window is still there
    finally:
        first.terminate()
        first.wait(timeout=30)
        (Path(QDir.tempPath()) / server_name(data)).unlink(missing_ok=True)  # a terminated window leaves it
