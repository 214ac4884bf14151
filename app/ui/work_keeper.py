"""Nothing typed is lost: the current work is autosaved shortly after each change, and the work an
unclean exit left is offered back (Restore / Discard) before anything overwrites it.

Signals: restored(dict: the work offered back, once the user chose Restore).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from app.ui import crash
from app.ui.restore_bar import RestoreBar

_AUTOSAVE_DELAY_MS = 800  # after the last change: typing saves once per pause, not per key
# A stream of changes with no pause (a program arriving token by token) still saves this often:
# waiting for the pause lost the whole streamed program when the app was killed mid-solve.
_AUTOSAVE_MAX_WAIT_S = 2.0
CLOSED_MID_SOLVE = "closed_mid_solve"  # in the saved work: the user closed the app, it did not crash


class WorkKeeper(QObject):
    restored = Signal(dict)
    save_failed = Signal(str)

    def __init__(
        self, path: Path, current_work: Callable[[], dict[str, str]], bar: RestoreBar, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.path = path
        self._current_work = current_work
        self._bar = bar
        self._timer = QTimer(self, singleShot=True, interval=_AUTOSAVE_DELAY_MS)
        self._timer.timeout.connect(self._save)
        self._offered: dict[str, str] | None = None  # offered and not yet taken or discarded
        self._keep = False  # closed mid-solve: the autosave stays for the next start
        self._pending_since: float | None = None  # the first change not yet saved
        bar.restore_clicked.connect(self._on_restore_clicked)
        bar.discard_clicked.connect(self._on_discard_clicked)

    def offer(self, crash_report: Path | None) -> bool:
        """Offer what an unclean exit left; True if there was something to offer."""
        self._offered = crash.recovered_work(self.path)
        if self._offered:
            self._bar.offer(
                self._offered.get("question", "") or Path(self._offered.get("data_file", "")).name,
                str(crash_report) if crash_report else None,
                closed=bool(self._offered.get(CLOSED_MID_SOLVE)),
            )
        return bool(self._offered)

    def changed(self) -> None:
        """The work changed: save it after a pause, or now if changes have not paused for a while."""
        now = time.monotonic()
        if self._pending_since is None:
            self._pending_since = now
        if now - self._pending_since >= _AUTOSAVE_MAX_WAIT_S:
            self._save()
        self._timer.start()

    def keep_for_next_start(self) -> None:
        """Closing mid-solve: save now and leave it for the next start to offer."""
        self._offered = None
        with contextlib.suppress(OSError):
            crash.save_work({**self._current_work(), CLOSED_MID_SOLVE: "1"}, self.path)
        self._keep = True

    def close(self) -> None:
        """A clean exit removes the autosave, unless it is on offer or kept for the next start."""
        self._timer.stop()
        if self._offered is None and not self._keep:
            crash.discard_work(self.path)

    def _save(self) -> None:
        self._pending_since = None
        if self._offered is not None:
            return  # the offer is open: saving now would overwrite the work it offers
        try:
            crash.save_work(self._current_work(), self.path)
        except OSError as exc:
            self.save_failed.emit(f"Your work could not be autosaved: {exc}")

    def _on_restore_clicked(self) -> None:
        work, self._offered = self._offered or {}, None
        self._bar.hide()
        self.restored.emit(work)

    def _on_discard_clicked(self) -> None:
        self._offered = None
        self._bar.hide()
        crash.discard_work(self.path)
        self._timer.start()
