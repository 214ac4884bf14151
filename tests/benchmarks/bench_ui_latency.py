"""UI responsiveness while the real model solves (prints figures; not a test).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_ui_latency.py

A 10 ms QTimer ticks on the UI thread while the window solves a question with the embedded
model; the longest gap between ticks shows how long the UI thread was ever blocked.
Target (issue 5): longest gap ≤ 50 ms.
"""

from __future__ import annotations

import itertools
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer  # after choosing the platform
from PySide6.QtWidgets import QApplication

from app.paths import AppPaths
from app.ui.app import compose, embedded_model


def main() -> None:
    app = QApplication(sys.argv[:1])
    window = compose(AppPaths(Path(tempfile.mkdtemp(prefix="pal-bench-"))), model_factory=embedded_model)
    window.show()
    ticks: list[float] = []
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))

    def start_solving(_name: str) -> None:
        window.question.setPlainText("A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?")
        timer.start()
        window.solve()

    def finished(solution: object) -> None:
        timer.stop()
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(ticks)]
        print(f"answer: {getattr(solution, 'answer', None)!r}, solve took {getattr(solution, 'duration_s', 0):.1f} s")
        print(f"timer ticks: {len(ticks)}; gap median {statistics.median(gaps):.1f} ms, "
              f"p99 {sorted(gaps)[int(0.99 * (len(gaps) - 1))]:.1f} ms, longest {max(gaps):.1f} ms")  # fmt: skip
        print(f"longest gap <= 50 ms: {'met' if max(gaps) <= 50 else 'MISSED'}")
        window.close()

    window.controller.model_ready.connect(start_solving)
    window.controller.solved.connect(finished)
    app.exec()
    close = getattr(window.controller.model, "close", None)
    if callable(close):
        close()


if __name__ == "__main__":
    main()
