"""The one way to run work off the UI thread.

`Background` owns a single worker thread — the inference thread: jobs run one at a time, so the
model never generates twice at once. A job is a plain function that receives a `report` callable
and returns its result. `submit` takes, with the job, what to do on the UI thread with each
report (`on_progress`), with the result (`on_success`, typed by the job's return type) and with
the exception if it raised (`on_failure`, which gets the exception itself; the traceback goes to
the log).

Rule: a job never touches a widget or any other Qt object. It talks to the UI only through
`report` and its return value.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from PySide6.QtCore import QObject, Signal

T = TypeVar("T")
Report = Callable[[object], None]
logger = logging.getLogger(__name__)


def _ignore(_payload: object) -> None:
    """The default `on_progress`: a job's reports nobody asked for."""


class Background(QObject):
    """Signals: busy_changed(bool)."""

    busy_changed = Signal(bool)
    # Carries a zero-argument callable from the worker thread to this object's (the UI) thread,
    # where it runs: the queued connection is what moves each callback onto the UI thread.
    _deliver = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pal-inference")
        self._pending = 0
        self._lock = threading.Lock()
        self._deliver.connect(self._on_deliver)

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def submit(
        self,
        job: Callable[[Report], T],
        *,
        on_success: Callable[[T], None],
        on_failure: Callable[[Exception], None],
        on_progress: Callable[[object], None] = _ignore,
        name: str = "job",
        quiet: bool = False,
    ) -> None:
        """Queue `job`; its reports, result or exception arrive on the UI thread in the callbacks.
        `name` says in the log which job failed; a `quiet` job (work done ahead, which the user's
        own work may stop) does not make the helper busy."""
        with self._lock:
            self._pending += 0 if quiet else 1
            first = self._pending == 1 and not quiet
        if first:
            self.busy_changed.emit(True)
        self._executor.submit(self._run, job, on_success, on_failure, on_progress, name=name, quiet=quiet)

    def shutdown(self) -> None:
        """Wait for the running job (callers cancel it first) and stop the thread."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    def _run(
        self,
        job: Callable[[Report], T],
        on_success: Callable[[T], None],
        on_failure: Callable[[Exception], None],
        on_progress: Callable[[object], None],
        *,
        name: str,
        quiet: bool,
    ) -> None:
        def report(payload: object) -> None:
            self._deliver.emit(lambda: on_progress(payload))

        outcome: Callable[[], None]
        try:
            result = job(report)
        except Exception as exc:
            logger.exception("background %s failed", name)
            error = exc  # `exc` itself is unbound when the except block ends
            outcome = lambda: on_failure(error)  # noqa: E731 -- one outcome, two shapes
        else:
            outcome = lambda: on_success(result)  # noqa: E731
        # Not busy any more before the result is announced, so its callback may start the next job.
        with self._lock:
            self._pending -= 0 if quiet else 1
            idle = self._pending == 0 and not quiet
        if idle:
            self.busy_changed.emit(False)
        self._deliver.emit(outcome)

    def _on_deliver(self, callback: Callable[[], None]) -> None:
        callback()
