"""The status bar and the answer pane's status line: what runs now (with the seconds so far, from
`PhaseTicker`, and the model's speed on this solve so far), how the last solve or run ended, the
model, its speed and the sandbox. A view of
the controller's signals, `Work` and `Events`; the window only says things through `show`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QStatusBar

from app.reasoning import ExecutionStarted, ModelStarted, Solution, SolveStatus, TokenStreamed
from app.reasoning.events import PHASES, LaneFinished, LaneStreamed, LanesWaiting, VoteStarted
from app.reasoning.runs import RunView, speed_text, status_detail
from app.ui.controller import SolveController
from app.ui.events import (
    LoadProgress,
    ModelLoading,
    Phase,
    RepairProposed,
    SandboxPreparing,
    SandboxReady,
    SandboxStarting,
    Warming,
)
from app.ui.phase_ticker import PhaseTicker
from app.ui.plain import CutLabel, Label, tip

_LABEL_WIDTH = 320
# The question was edited while it was being solved: the answer shown is the one asked before.
EDITED_WHILE_SOLVING = " — for the question as it was when solved; it has been edited since (Ctrl+Enter solves it)"
# Said after the phase for a few seconds when Ctrl+Enter, Ctrl+R … come while work runs (nothing starts).
BUSY_NOTE = " · busy with this: Esc stops it first"
_BUSY_NOTE_S = 6.0
PRACTICE_HIDDEN = "A question to practise: its answer is checked and hidden; work it out in the Working tab."
PRACTICE_SHOWN = "A question to practise, its answer shown: Another one like this (Working tab) gives a new one."
NO_PROGRAM_TEXT = (
    "The model answered in words and wrote no program (its reply is under Output). PAL Studio answers "
    "questions that need calculation; for others, try 'Explain in words', or add the numbers involved."
)


class StatusView(QObject):
    def __init__(self, bar: QStatusBar, line: Label, controller: SolveController, question: Callable[[], str]) -> None:
        super().__init__(bar)
        self._bar, self._line, self._controller = bar, line, controller
        self._question = question  # the question as it reads now, perhaps edited while the solve ran
        self.message = CutLabel()  # what the window says, left; cut with "…" where the labels leave too little room
        bar.addWidget(self.message, 1)
        self.model_label = CutLabel("model: loading…", mode=Qt.TextElideMode.ElideMiddle)  # "Qwen2.5 Cod…Q4_K_M"
        self.speed_label, self.isolation_label = CutLabel(), CutLabel()
        for label in (self.model_label, self.speed_label, self.isolation_label):
            label.setMaximumWidth(_LABEL_WIDTH)  # a long model name is cut, not a wider window
            bar.addPermanentWidget(label)
        bar.installEventFilter(self)  # the labels give up width as the bar narrows (see eventFilter)
        self.ready_text = "Ready."
        self.ticker = PhaseTicker(self)
        self._vote_lanes: tuple[str, ...] = ()  # the vote in progress, if any: its phase is the vote's
        self._vote_done = 0
        self._tokens, self._first_token_at = 0, 0.0  # the work in progress's decoding so far
        self._refused_at = -_BUSY_NOTE_S  # when a request last came while work ran
        self.ticker.text.connect(self._on_tick)
        controller.busy.connect(self._on_busy)
        controller.model_ready.connect(self._on_model_ready)
        controller.model_failed.connect(self._on_model_failed)
        controller.failed.connect(lambda message: self.show(f"Something went wrong: {message}"))
        work, events = controller.work, controller.events
        work.started.connect(self._on_started)
        work.solution_changed.connect(self._on_solution_changed)
        work.run_changed.connect(self._on_run_changed)
        work.revealed.connect(lambda: self.show(PRACTICE_SHOWN) if work.origin == "practice" else None)
        events.subscribe(Phase, lambda phase: self.ticker.set_phase(phase.text))
        events.subscribe(SandboxPreparing, lambda preparing: self.ticker.set_phase(preparing.text))
        events.subscribe(ModelLoading, self._on_model_loading)
        events.subscribe(LoadProgress, self._on_load_progress)
        events.subscribe(SandboxStarting, lambda _starting: self.isolation_label.setText("sandbox: starting…"))
        events.subscribe(SandboxReady, self._on_sandbox_ready)
        events.subscribe(ModelStarted, self._on_model_started)
        events.subscribe(ExecutionStarted, self._on_execution_started)
        events.subscribe(VoteStarted, self._on_vote_started)
        events.subscribe(LaneFinished, self._on_lane_finished)
        events.subscribe(LanesWaiting, self._on_lanes_waiting)
        events.subscribe(RepairProposed, self._on_repair_proposed)
        events.subscribe(Warming, self._on_warming)
        events.subscribe(TokenStreamed, lambda _token: self._count_token())
        events.subscribe(LaneStreamed, lambda _lane: self._count_token())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        """On a narrow bar (a laptop at 150 %) the three labels take at most three fifths of it,
        so the message on the left is not painted over."""
        if watched is self._bar and event.type() == QEvent.Type.Resize:
            share = max(self._bar.width() // 5, Label.MIN_WIDTH)
            for label in (self.model_label, self.speed_label, self.isolation_label):
                label.setMaximumWidth(min(_LABEL_WIDTH, share))
        return False

    def show(self, text: str) -> None:
        self._line.setText(text)
        self.message.setText(text)

    def _on_warming(self, warming: Warming) -> None:
        """Said while nothing else is: the user's own work stops the warm-up and speaks instead."""
        meanwhile = f"{self.ready_text} Reading the methods' worked examples into the model meanwhile (once)…"
        if not warming.done:
            self.show(meanwhile)
        elif self._line.text() == meanwhile:
            self.show(self.ready_text)

    def _on_lanes_waiting(self, waiting: LanesWaiting) -> None:
        if waiting.for_room:  # the solves take turns: a phase of its own (the others wait their order)
            self.ticker.set_phase(PHASES["turns"] + "…")

    def refuses(self) -> bool:
        """Whether work runs, so that a request made now (Ctrl+Enter again, Ctrl+R) starts nothing:
        the phase line then says so for a few seconds, where nothing seemed to happen before."""
        busy = self._controller.is_busy
        if busy:
            self._refused_at = time.monotonic()
            self.show(self._line.text().removesuffix(BUSY_NOTE) + BUSY_NOTE)
        return busy

    def _on_busy(self, busy: bool) -> None:
        self._tokens = 0
        self.ticker.set_busy(busy)

    def _count_token(self) -> None:
        if not self._tokens:
            self._first_token_at = time.monotonic()
        self._tokens += 1

    def _on_tick(self, text: str) -> None:
        """The phase and seconds, with this work's own decoding speed once it has one."""
        elapsed = time.monotonic() - self._first_token_at
        speed = f" · {self._tokens / elapsed:.0f} tokens/s" if self._tokens > 1 and elapsed >= 1 else ""
        refused = time.monotonic() - self._refused_at < _BUSY_NOTE_S
        self.show(text + speed + (BUSY_NOTE if refused else ""))

    def _on_started(self) -> None:
        self._vote_lanes, self._vote_done = (), 0

    def _on_solution_changed(self, solution: Solution) -> None:
        origin = self._controller.work.origin
        if origin == "solve" and solution.status is SolveStatus.NO_PROGRAM:
            self.show(NO_PROGRAM_TEXT)
        elif origin == "solve":
            edited = self._question().strip() != solution.question.strip()
            self.show(status_detail(solution) + (EDITED_WHILE_SOLVING if edited else ""))
            self.speed_label.setText(speed_text(solution, self._controller.settings.n_ctx))
        elif origin == "run" and self._controller.work.last_run is not None:
            self._on_run_changed(self._controller.work.last_run)
        elif origin == "reopen":
            self.show(f"Reopened a past solve: {solution.message}")
        elif origin == "practice":
            self.show(PRACTICE_HIDDEN)
        elif origin == "choice":
            self.show("The answer is the program's printed output, as PAL reads it (the program did not set ans).")

    def _on_run_changed(self, run: RunView) -> None:
        self.isolation_label.setText(f"sandbox: {run.isolation} · {self._controller.sandbox_name}")
        self.show(run.summary)

    def _on_model_loading(self, _loading: ModelLoading) -> None:
        self.model_label.setText("model: loading…")
        self.ticker.set_phase("Loading the model…")

    def _on_load_progress(self, progress: LoadProgress) -> None:
        if progress.total:
            self.ticker.set_phase(f"Preparing the model… {100 * progress.done // progress.total}%")

    def _on_model_ready(self, name: str) -> None:
        self.model_label.setText(f"model: {name}")  # a long file name is cut in the middle, whole in the tooltip
        self.show(self.ready_text)

    def _on_model_failed(self, message: str) -> None:
        self.model_label.setText("model: not loaded")
        self.show(f"The model could not be loaded: {message}")

    def _on_sandbox_ready(self, ready: SandboxReady) -> None:
        self.isolation_label.setText(f"sandbox: {ready.isolation} · {ready.backend}")
        self.isolation_label.setToolTip(tip("\n".join(ready.layers)))
        if ready.problem:
            self.show(f"Programs cannot be run here: {ready.problem}")

    def _on_model_started(self, started: ModelStarted) -> None:
        if not self._vote_lanes:  # a vote's phase is the vote's, not one method's words
            self.ticker.set_phase(PHASES.get(started.purpose, "Writing the program") + "…")

    def _on_execution_started(self, _started: ExecutionStarted) -> None:
        if not self._vote_lanes:
            self.ticker.set_phase("Running the program in the sandbox…")

    def _on_vote_started(self, started: VoteStarted) -> None:
        if started.first_lane:  # a second round joins the first: "4 of 7 done"
            self._vote_lanes += started.lanes
        else:
            self._vote_lanes, self._vote_done = started.lanes, 0
        self.ticker.set_phase(self._vote_phase())

    def _on_lane_finished(self, _finished: LaneFinished) -> None:
        self._vote_done += 1
        self.ticker.set_phase(self._vote_phase())

    def _vote_phase(self) -> str:
        """A vote's own phase: "3 methods working… 1 of 3 done", not one method's words."""
        lanes = self._vote_lanes
        programs = all(label.startswith("Program") for label in lanes)
        working = f"{len(lanes)} programs being written" if programs else f"{len(lanes)} methods working"
        return f"{working}… {self._vote_done} of {len(lanes)} done" if self._vote_done else f"{working}…"

    def _on_repair_proposed(self, proposed: RepairProposed) -> None:
        if proposed.changes:
            self.show("Repair proposed: accept to run it, or revert.")
        elif proposed.program is not None:
            self.show("The model proposed the same program again: edit it yourself, or ask for a repair once more.")
        else:
            self.show("The model proposed no corrected program.")
