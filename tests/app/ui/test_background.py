"""Typed background jobs: the result reaches `on_success` as it was returned, a failure reaches
`on_failure` as the exception itself (and the log, with its traceback), reports arrive in order,
and every callback runs on the UI thread while the job ran on the inference thread."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from app import logs
from app.ui.background import Background, Report


class Refused(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"refused with code {code}")
        self.code = code


def test_success_progress_and_threads(qtbot: QtBot) -> None:
    background = Background()
    ui_thread = threading.current_thread()
    seen: list[tuple[str, object, bool]] = []
    job_thread: list[str] = []

    def job(report: Report) -> dict[str, int]:
        job_thread.append(threading.current_thread().name)
        for step in range(3):
            report(step)
        return {"answer": 42}

    background.submit(
        job,
        on_progress=lambda payload: seen.append(("progress", payload, threading.current_thread() is ui_thread)),
        on_success=lambda result: seen.append(("success", result, threading.current_thread() is ui_thread)),
        on_failure=lambda error: seen.append(("failure", error, True)),
    )
    qtbot.waitUntil(lambda: any(kind == "success" for kind, _value, _ui in seen), timeout=5000)
    background.shutdown()
    assert [(kind, value) for kind, value, _ui in seen] == [
        ("progress", 0), ("progress", 1), ("progress", 2), ("success", {"answer": 42}),
    ]  # fmt: skip
    assert all(on_ui for _kind, _value, on_ui in seen)
    assert job_thread == ["pal-inference_0"]


def test_a_failure_carries_the_exception_and_is_logged(qtbot: QtBot, tmp_path: Path) -> None:
    handler = logs.configure(tmp_path / "pal-studio.log", "info")
    assert handler is not None
    try:
        background = Background()
        failures: list[Exception] = []

        def job(_report: Report) -> int:
            raise Refused(7)

        background.submit(job, on_success=lambda _r: None, on_failure=failures.append, name="test job")
        qtbot.waitUntil(lambda: bool(failures), timeout=5000)
        background.shutdown()
        (error,) = failures
        assert isinstance(error, Refused) and error.code == 7  # the exception itself, not its text
        handler.flush()
        text = (tmp_path / "pal-studio.log").read_text(encoding="utf-8")
        assert "background test job failed" in text and "Traceback" in text and "Refused: refused with code 7" in text
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()


def test_busy_while_jobs_are_queued(qtbot: QtBot) -> None:
    background = Background()
    changes: list[bool] = []
    background.busy_changed.connect(changes.append)
    release = threading.Event()
    done: list[int] = []
    background.submit(lambda _r: release.wait(5) and 1, on_success=done.append, on_failure=lambda _e: None)
    background.submit(lambda _r: 2, on_success=done.append, on_failure=lambda _e: None)
    busy_while_queued = background.busy
    release.set()
    qtbot.waitUntil(lambda: len(done) == 2, timeout=5000)
    background.shutdown()
    assert busy_while_queued and done == [1, 2] and not background.busy
    assert changes[0] is True and changes[-1] is False
