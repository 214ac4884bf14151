"""`Work`: the one current piece of work the window shows — what every pane renders from and
every action (solve, hand run, repair, reopen, step-through) updates — so exports, the history and
the screen never disagree. Qt-free; the question and the program as edited live in their boxes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.reasoning import Solution
from app.reasoning.runs import RunView


@dataclass
class Work:
    solution: Solution | None = None  # what is shown and exported: a solve, a hand run or a reopened one
    solve: Solution | None = None  # the last model solve, which a hand-edited program edits
    last_run: RunView | None = None  # the last run shown; a repair starts from its error
    trace: list[dict[str, Any]] | None = None  # the last step-through, for the stepper and exports

    def start_over(self) -> None:
        """A new solve or a reopened one: nothing of the last one applies."""
        self.solution = self.solve = self.last_run = None
        self.trace = None

    def solved(self, solution: Solution) -> None:
        self.solution = self.solve = solution
        self.trace = None

    def reopened(self, solution: Solution) -> None:
        self.start_over()
        self.solution = solution
        self.solve = solution if solution.calls else None  # a hand run has no model calls to keep

    def ran(self, run: RunView) -> None:
        self.last_run = run
        if run.trace is not None:
            self.trace = run.trace
