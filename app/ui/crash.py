"""Crash safety: the work is autosaved as it changes, and a crash of any kind leaves a report.

An unexpected Python exception saves the work, writes a report with the traceback to the log
folder and shows it with the text ready to copy. A native crash (Qt or llama.cpp aborting the
interpreter) cannot run Python code, so `faulthandler` writes its stack into a per-process file
that the next start turns into a report; the autosaved work is offered back then.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import platform
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui.plain import message_box

Work = Callable[[], dict[str, str]]  # returns what to keep: {"question": …, "program": …}


_NATIVE_LOG = "native-crash-{pid}.log"


def save_work(work: dict[str, str], path: Path) -> None:
    """Keep `work` where the next start finds it (atomically: a crash mid-write loses nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(work), encoding="utf-8")
    os.replace(partial, path)


def discard_work(path: Path) -> None:
    """A clean exit: nothing needs restoring next time."""
    path.unlink(missing_ok=True)


def enable_native_crash_log(folder: Path) -> Path | None:
    """Route fatal errors (segfaults, aborts) to a file; return the report a previous native crash left."""
    found = collect_native_crash_report(folder)
    handle = open(folder / _NATIVE_LOG.format(pid=os.getpid()), "w", encoding="utf-8")  # noqa: SIM115 -- process-long
    faulthandler.enable(handle, all_threads=True)
    return found


def collect_native_crash_report(folder: Path) -> Path | None:
    """Turn the stack a dead process left into `crash-*-native.txt`; remove empty leftovers.

    Each process writes its own file, so two windows never clobber each other's; a file whose
    process is gone and that holds text is the stack of a native crash.
    """
    folder.mkdir(parents=True, exist_ok=True)
    found: Path | None = None
    for old in folder.glob(_NATIVE_LOG.format(pid="*")):
        pid = old.stem.rpartition("-")[2]
        if pid.isdigit() and _alive(int(pid)):
            continue
        try:
            if old.stat().st_size:
                stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(old.stat().st_mtime))
                report = folder / f"crash-{stamp}-native.txt"
                os.replace(old, report)
                found = report  # only once it is there: another start may have taken the log first
            else:
                old.unlink(missing_ok=True)
        except FileNotFoundError:  # gone meanwhile: its process ended cleanly, or another start took it
            continue
    return found


def close_native_crash_log(folder: Path) -> None:
    """A clean exit: stop writing fatal errors and remove this process's (empty) file."""
    faulthandler.disable()
    with contextlib.suppress(OSError):
        (folder / _NATIVE_LOG.format(pid=os.getpid())).unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def handle_crash(
    parent: QWidget | None,
    work: Work,
    kind: type[BaseException],
    error: BaseException,
    tb: TracebackType | None,
    *,
    recovery: Path,
    logs: Path,
) -> Path | None:
    """Save the work, write the report, show it; returns the report's path (None if unwritable)."""
    try:
        saved = work()
        save_work(saved, recovery)
    except Exception:  # the crash handler must not crash; the report below still says what happened
        saved = {}
    report = (
        f"PAL Studio crashed at {time.strftime('%Y-%m-%d %H:%M:%S')}\n"
        f"Python {platform.python_version()} on {platform.platform()}\n\n"
        + "".join(traceback.format_exception(kind, error, tb))
    )
    path: Path | None = logs / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.txt"
    try:
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report, encoding="utf-8")
    except OSError:
        path = None
    kept = (
        "Your question and program were saved; if PAL Studio stops, the next start offers them back. " if saved else ""
    )
    where = f"The report was saved as {path}." if path else "The report could not be saved."
    text = f"Something unexpected went wrong: {error}\n\n{kept}{where}"
    box = message_box(parent, QMessageBox.Icon.Critical, "PAL Studio ran into a problem", text)
    box.setDetailedText(report)  # selectable, so it can be copied into a bug report
    box.exec()
    return path


def install(parent: QWidget, work: Work, *, recovery: Path, logs: Path) -> None:
    """Route uncaught exceptions on the UI thread to `handle_crash`."""

    def hook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, tb)
            return
        handle_crash(parent, work, kind, error, tb, recovery=recovery, logs=logs)

    sys.excepthook = hook


def recovered_work(path: Path) -> dict[str, str] | None:
    """What an unclean exit left (the autosave or the crash handler's save), if anything."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    work = {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
    # The picked method alone is no work of the user's: nothing to offer then.
    return work if any(value.strip() for key, value in work.items() if key != "method") else None
