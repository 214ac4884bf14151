"""What the window says while work runs: nothing for the first half second (short work needs no
words), then the phase and the seconds so far ("Writing the program… 12 s"), every second.

Signals: text(str), each time the words change.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

_QUIET_MS = 500


class PhaseTicker(QObject):
    text = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._phase = ""
        self._since = 0.0
        self._busy = False
        self._quiet = QTimer(self, singleShot=True, interval=_QUIET_MS)
        self._every_second = QTimer(self, interval=1000)
        self._quiet.timeout.connect(self._tick)
        self._every_second.timeout.connect(self._tick)

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        if busy:
            self._since = time.monotonic()
        else:
            self._quiet.stop()
            self._every_second.stop()

    def set_phase(self, phase: str) -> None:
        self._phase = phase
        if not self._quiet.isActive() and not self._every_second.isActive():
            self._quiet.start()

    def _tick(self) -> None:
        if not self._busy:
            self._every_second.stop()
            return
        self.text.emit(f"{self._phase} {time.monotonic() - self._since:.0f} s")
        if not self._every_second.isActive():
            self._every_second.start()
