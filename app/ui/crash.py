"""Crash safety: on an unexpected exception, keep the user's work, write a report, explain.

The question and program are saved first (restored at the next start), then a report with the
traceback goes to the log folder, then a dialog shows it with the text ready to copy.
"""

from __future__ import annotations

import json
import platform
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtWidgets import QMessageBox, QWidget

from app.reasoning.solve_log import log_dir
from models.paths import data_dir

Work = Callable[[], dict[str, str]]  # returns what to keep: {"question": …, "program": …}


def recovery_path() -> Path:
    return data_dir() / "recovery.json"


def handle_crash(
    parent: QWidget | None, work: Work, kind: type[BaseException], error: BaseException, tb: TracebackType | None
) -> Path | None:
    """Save the work, write the report, show it; returns the report's path (None if unwritable)."""
    try:
        saved = work()
        recovery_path().parent.mkdir(parents=True, exist_ok=True)
        recovery_path().write_text(json.dumps(saved), encoding="utf-8")
    except Exception:  # the crash handler must not crash; the report below still says what happened
        saved = {}
    report = (
        f"PAL Studio crashed at {time.strftime('%Y-%m-%d %H:%M:%S')}\n"
        f"Python {platform.python_version()} on {platform.platform()}\n\n"
        + "".join(traceback.format_exception(kind, error, tb))
    )
    path: Path | None = log_dir() / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    try:
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report, encoding="utf-8")
    except OSError:
        path = None
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("PAL Studio ran into a problem")
    kept = "Your question and program were saved and come back when PAL Studio starts again. " if saved else ""
    where = f"The report was saved as {path}." if path else "The report could not be saved."
    box.setText(f"Something unexpected went wrong: {error}\n\n{kept}{where}")
    box.setDetailedText(report)  # selectable, so it can be copied into a bug report
    box.exec()
    return path


def install(parent: QWidget, work: Work) -> None:
    """Route uncaught exceptions on the UI thread to `handle_crash`."""

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        handle_crash(parent, work, kind, error, tb)

    sys.excepthook = hook


def take_recovered_work() -> dict[str, str] | None:
    """What the last crash saved, once (the file is removed)."""
    path = recovery_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    path.unlink(missing_ok=True)
    return (
        {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else None
    )
