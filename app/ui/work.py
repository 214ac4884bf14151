"""`Work`: the window's one model — the current piece of work every pane shows: the shown
solution, the solve a hand-edited program edits, the last run, its trace and the equation's graph.
The controller writes job results into it, the window writes the user's choices; the panes
subscribe to its signals and draw from its fields. Only its own methods change it, so exports, the
history and the screen never disagree. The question and the program as edited live in their boxes.

Signals: started() — a new solve, nothing of the last one applies; solution_changed(Solution) —
a solve, a hand run, a reopened solve or a chosen reading (`origin` says which; a hand run's run
is `last_run`, so it reaches the panes once); run_changed(RunView) — a program of the solve in
progress ran; graph_changed(Graph); forgotten() — the question changed, the answer was another
question's; revealed() — the student asked to see the answer they were trying; attempt(question,
outcome) — the student's try ended "right", "wrong" or "revealed", to be kept; tally_changed() —
the practice tally (`tally`) and list (`attempts`) changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from PySide6.QtCore import QObject, Signal

from app.reasoning import Solution, SolveStatus
from app.reasoning.check_working import CheckedWorking
from app.reasoning.graphs import Graph
from app.reasoning.runs import RunView
from app.store.history import PracticeAttempt
from sandbox import TraceStep

Origin = Literal["solve", "run", "reopen", "choice", "practice"]


class Work(QObject):
    started = Signal()
    solution_changed = Signal(Solution)
    run_changed = Signal(RunView)
    graph_changed = Signal(Graph)
    forgotten = Signal()
    checked_changed = Signal()  # the student's working was checked (or the check no longer applies)
    revealed = Signal()
    attempt = Signal(str, str)
    tally_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.solution: Solution | None = None  # what is shown and exported
        self.origin: Origin = "solve"  # how `solution` came
        self.solve: Solution | None = None  # the last model solve, which a hand-edited program edits
        self.last_run: RunView | None = None  # the last run shown; a repair starts from its error
        self.trace: tuple[TraceStep, ...] | None = None  # the last step-through, for the stepper and exports
        self.graph: Graph | None = None
        self.try_yourself = False  # the student works the answer out before it is shown
        self.hiding = False  # the shown answer waits until the student asks for it
        self.asked = ""  # the question of the solve in progress
        self.checked: CheckedWorking | None = None  # the student's working, checked against `solution`
        self.tally: dict[str, int] = {}  # practice attempts by outcome (right, wrong, revealed), all kept
        self.attempts: list[PracticeAttempt] = []  # the newest of them, for the practice list

    def start_over(self, question: str = "") -> None:
        """A new solve (of `question`): nothing of the last one applies."""
        self.solution = self.solve = self.last_run = self.trace = self.graph = None
        self.hiding, self.asked = False, question
        self.started.emit()

    def solved(self, solution: Solution) -> None:
        self.solve, self.trace = solution, None
        self._show(solution, "solve")

    def ran(self, run: RunView) -> None:
        """A program of the solve in progress ran (its answer comes with the solve)."""
        self._keep_run(run)
        self.run_changed.emit(run)

    def ran_by_hand(self, run: RunView, solution: Solution) -> None:
        """The user ran (or stepped through) the program: the run and what it answers, shown at once."""
        self._keep_run(run)
        self._show(solution, "run")

    def reopened(self, solution: Solution) -> None:
        self.solve = solution if solution.calls else None  # a hand run has no model calls to keep
        self.last_run = self.trace = self.graph = None
        self._show(solution, "reopen")

    def chose_alternative(self) -> None:
        """The user took PAL's reading of the printed output as the answer, labelled as such."""
        solution = self.solution
        if solution is None or not solution.alternative:
            return
        chosen = replace(
            solution, answer=solution.alternative, status=SolveStatus.ANSWERED, alternative=None,
            method=f"{solution.method}, printed output chosen",
        )  # fmt: skip
        self._show(chosen, "choice")

    def practised(self, variant: Solution) -> None:
        """A question to practise — a new one like the last, or one from the practice list — its
        answer hidden whatever Try it yourself says: it is there to be worked out."""
        self.solve, self.trace, self.graph = variant, None, None
        self._show(variant, "practice")

    def attempted(self, outcome: str) -> None:
        if self.solution is not None:
            self.attempt.emit(self.solution.question, outcome)

    def tallied(self, tally: dict[str, int], attempts: list[PracticeAttempt]) -> None:
        self.tally, self.attempts = dict(tally), list(attempts)
        self.tally_changed.emit()

    def working_checked(self, checked: CheckedWorking | None) -> None:
        self.checked = checked
        self.checked_changed.emit()

    def graphed(self, graph: Graph) -> None:
        self.graph = graph
        self.graph_changed.emit(graph)

    def forget(self) -> None:
        """The question changed: the answer, its vote and an explanation were the old question's."""
        if self.solution is not None:
            self.solution, self.hiding = None, False
            self.forgotten.emit()

    def set_try_yourself(self, on: bool) -> None:
        self.try_yourself = on

    def reveal(self) -> None:
        if self.hiding:
            self.hiding = False
            self.revealed.emit()

    def _keep_run(self, run: RunView) -> None:
        self.last_run = run
        self.trace = run.trace  # a run without one leaves no earlier program's steps behind

    def _show(self, solution: Solution, origin: Origin) -> None:
        self.solution, self.origin = solution, origin
        if self.checked is not None:  # checked against another solution
            self.checked = None
            self.checked_changed.emit()
        self.hiding = solution.answered and (origin == "practice" or (self.try_yourself and bool(solution.calls)))
        self.solution_changed.emit(solution)
