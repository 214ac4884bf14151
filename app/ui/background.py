"""The one way to run work off the UI thread.

`Background` owns a single worker thread — the inference thread: jobs run one at a time, so the
model never generates twice at once. A job is a plain function that receives a `report`
callable; whatever it reports arrives on the UI thread through the `progress` signal, and its
return value (or exception) through `succeeded` (or `failed`).

Rule: a job never touches a widget or any other Qt object. It talks to the UI only through
`report` and its return value.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Signal

Report = Callable[[object], None]
Job = Callable[[Report], Any]
logger = logging.getLogger(__name__)


class Background(QObject):
    """Signals: progress(tag, payload), succeeded(tag, result), failed(tag, message), busy_changed(bool)."""

    progress = Signal(str, object)
    succeeded = Signal(str, object)
    failed = Signal(str, str)
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pal-inference")
        self._pending = 0
        self._lock = threading.Lock()

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def submit(self, tag: str, job: Job) -> None:
        """Queue `job`; `tag` names it in the signals (e.g. "load", "solve", "run")."""
        with self._lock:
            self._pending += 1
            first = self._pending == 1
        if first:
            self.busy_changed.emit(True)
        self._executor.submit(self._run, tag, job)

    def shutdown(self) -> None:
        """Wait for the running job (callers cancel it first) and stop the thread."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    def _run(self, tag: str, job: Job) -> None:
        error: str | None = None
        result: Any = None
        try:
            result = job(lambda payload: self.progress.emit(tag, payload))
        except Exception as exc:
            logger.exception("background job %s failed", tag)
            error = str(exc) or type(exc).__name__
        # Not busy any more before the result is announced, so its slots may start the next job.
        with self._lock:
            self._pending -= 1
            idle = self._pending == 0
        if idle:
            self.busy_changed.emit(False)
        if error is None:
            self.succeeded.emit(tag, result)
        else:
            self.failed.emit(tag, error)
