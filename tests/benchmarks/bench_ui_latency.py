"""UI responsiveness while the real model solves (prints figures; not a test).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_ui_latency.py [--hostile]

A 10 ms QTimer ticks on the UI thread while the window solves a question with the embedded
model; the longest gap between ticks shows how long the UI thread was ever blocked.
`--hostile`: instead, a five-program vote (scripted, real sandbox) whose programs print the
hostile corpus of tests/security (markup, formulas, control characters, 3,000-character lines)
and return it as a table to chart — everything the window then shows of it counts.
Target (issues 5 and 28): longest gap ≤ 50 ms.
"""

from __future__ import annotations

import argparse
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
from models.testing import ScriptedModel
from tests.security.hostile import HOSTILE_LINES, RICH

QUESTION = "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?"
HOSTILE_QUESTION = f"Chart the amounts: {RICH}"


def hostile_model(_progress: object) -> ScriptedModel:
    rows = [{"name": line[:200], "amount": n} for n, line in enumerate(HOSTILE_LINES)]
    program = f"```python\nresult = {rows!r}\nfor line in {list(HOSTILE_LINES)!r}:\n    print(line)\n```"
    return ScriptedModel([program] * 5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hostile", action="store_true", help="a vote of programs that print hostile text")
    hostile = parser.parse_args().hostile
    app = QApplication(sys.argv[:1])
    factory = hostile_model if hostile else embedded_model
    window = compose(AppPaths(Path(tempfile.mkdtemp(prefix="pal-bench-"))), model_factory=factory)
    window.show()
    ticks: list[float] = []
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))

    def start_solving(_name: str) -> None:
        window.question.setPlainText(HOSTILE_QUESTION if hostile else QUESTION)
        if hostile:
            window.question_pane.pick_method("sc-pal")
        timer.start()
        window.solve()

    def finished(solution: object) -> None:
        # Ticks go on for a second: what the window draws after the solve (tabs, tables, charts,
        # typeset steps) blocks the UI thread too, and the gap it leaves counts.
        answer = str(getattr(solution, "answer", None))
        print(f"answer: {answer[:60]!r}{'…' if len(answer) > 60 else ''}, "
              f"solve took {getattr(solution, 'duration_s', 0):.1f} s")  # fmt: skip
        QTimer.singleShot(1000, report)

    def report() -> None:
        timer.stop()
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(ticks)]
        print(f"timer ticks: {len(ticks)}; gap median {statistics.median(gaps):.1f} ms, "
              f"p99 {sorted(gaps)[int(0.99 * (len(gaps) - 1))]:.1f} ms, longest {max(gaps):.1f} ms")  # fmt: skip
        print(f"longest gap <= 50 ms: {'met' if max(gaps) <= 50 else 'MISSED'}")
        window.close()

    window.controller.model_ready.connect(start_solving)
    window.work.solution_changed.connect(finished)
    app.exec()
    close = getattr(window.controller.model, "close", None)
    if callable(close):
        close()


if __name__ == "__main__":
    main()
