"""The Program pane: the editable program (streamed in as the model writes it), Run / Step /
Repair, a proposed repair's diff and a line's explanation. A view of `Work` and `Events`; the
window decides what its buttons do."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QPushButton, QWidget

from app.reasoning import ProgramExtracted, Solution, SolveStatus, TokenStreamed
from app.reasoning.events import FirstAnswer, LaneFinished
from app.reasoning.extract import streamed_program
from app.reasoning.runs import RunView
from app.ui.code_editor import CodeEditor, show_growing
from app.ui.events import Events, LineExplained, RepairProposed
from app.ui.layouts import column, row
from app.ui.plain import Label, heading
from app.ui.repair_view import RepairView
from app.ui.work import Work


class ProgramPane(QWidget):
    def __init__(self, work: Work, events: Events, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._work = work
        self.editor = CodeEditor()
        self.run_button = QPushButton("Run (Ctrl+R)")
        self.trace_button = QPushButton("Step (Ctrl+T)")
        self.repair_button = QPushButton("Repair")
        self.repair_button.setEnabled(False)
        self.repair_view = RepairView()
        self.explain_button = QPushButton("Explain line (Ctrl+E)")
        self.explanation = Label("")  # the model's words on one line, beside the program
        self.explanation.setWordWrap(True)
        self.explanation.setVisible(False)
        column(
            heading("Program"), self.editor, row(self.run_button, self.trace_button, self.repair_button),
            self.explain_button, self.explanation, self.repair_view, into=self,
        )  # fmt: skip
        self.repair_view.reverted.connect(self.editor.setPlainText)
        self._stream = ""  # the reply streaming in, of which the program is shown
        self._explaining = ""
        self._repairing = False  # a requested repair streams beside the program, not into it
        # A vote's first answer is on screen: the editor holds its program (this lane's) until the
        # vote ends; the other solves stream in their own columns. Seen in the window: PoT's program
        # growing in the editor under PAL's "60 (checking…)".
        self._held: int | None = None
        work.started.connect(self.start_over)
        work.solution_changed.connect(self._on_solution_changed)
        work.run_changed.connect(self._on_run_changed)
        work.forgotten.connect(self.forget_explanation)
        events.subscribe(TokenStreamed, self._on_token)
        events.subscribe(ProgramExtracted, self._on_program)
        events.subscribe(FirstAnswer, self._hold)
        events.subscribe(LaneFinished, self._on_lane_finished)
        events.subscribe(RepairProposed, self._on_repair_proposed)
        events.subscribe(LineExplained, lambda explained: self.explained(explained.number, explained.text))

    def start_over(self) -> None:
        """A new solve: no program, no marks, no repair on offer, no explanation of the old one."""
        self._stream, self._repairing, self._held = "", False, None
        self.editor.clear()
        self.clear_marks()
        self.repair_view.dismiss()
        self.forget_explanation()

    def forget_explanation(self) -> None:
        self.explanation.clear()
        self.explanation.setVisible(False)

    def clear_marks(self) -> None:
        self.editor.mark_error_line(0)
        self.editor.mark_emulated_lines(frozenset())

    def current_line(self) -> int:
        return self.editor.textCursor().blockNumber() + 1

    def start_explaining(self, number: int) -> None:
        self._explaining = f"Line {number}: "
        self.explanation.setText(self._explaining + "…")
        self.explanation.setVisible(True)

    def explain_stream(self, text: str) -> None:
        self._explaining += text
        self.explanation.setText(self._explaining)

    def explained(self, number: int, text: str) -> None:
        """The whole explanation; one that names its line itself ("Line 7 defines …", as the model
        often starts) is not prefixed again ("Line 7: Line 7 defines …")."""
        if not text:
            text = "no explanation came."
        self.explanation.setText(text if re.match(rf"Line {number}\b", text) else f"Line {number}: {text}")

    def start_repair(self) -> str:
        """A repair was asked for: it streams beside the program it would replace (returned)."""
        self._repairing = True
        return self.editor.toPlainText()

    def _on_token(self, token: TokenStreamed) -> None:
        if token.purpose == "explain":
            self.explain_stream(token.text)
        elif token.purpose == "reasoning":  # words are no program: they never go in the editor
            return
        elif self._repairing:
            self.repair_view.stream(token.text)
        elif self._held is None:
            self.append(token.text)

    def _on_program(self, extracted: ProgramExtracted) -> None:
        """A program is complete: the next reply (a second look, a repair) streams on its own, not
        after this one's closing fence (seen: "``````python" in the editor mid-solve)."""
        self._stream = ""
        if self._held is None:
            self.editor.setPlainText(extracted.program)

    def _hold(self, first: FirstAnswer) -> None:
        self._held = first.lane

    def _on_lane_finished(self, done: LaneFinished) -> None:
        """The first answer's solve: its program, whichever solve streamed into the editor."""
        if done.lane == self._held and done.program is not None:
            self.editor.setPlainText(done.program)

    def _on_repair_proposed(self, proposed: RepairProposed) -> None:
        self._repairing = False
        if proposed.program is None or not proposed.changes:
            self.repair_view.dismiss()
            return
        self.repair_view.propose(proposed.before, proposed.program)
        self.editor.setPlainText(proposed.program)
        self.clear_marks()  # the error was the old program's

    def _on_solution_changed(self, solution: Solution) -> None:
        self._held = None  # the vote's program replaces the first answer's; a repair streams again
        origin = self._work.origin
        if origin in ("reopen", "practice"):  # another question's program, whole
            self.forget_explanation()
            self.repair_view.dismiss()
            self.editor.setPlainText(solution.program or "")
        elif origin == "solve" and solution.status is SolveStatus.NO_PROGRAM:  # prose: it went under Output
            self.editor.clear()
        elif origin == "solve" and solution.program is not None:
            self.editor.setPlainText(solution.program)
        elif origin == "solve" and solution.samples > 1:  # chain of thought won the vote: the last program lost it
            self.editor.clear()
        run = self._work.last_run if origin == "run" else None
        failed = not solution.answered and solution.status is not SolveStatus.CANCELLED  # not a program cut off
        self.repair_button.setEnabled(not run.ok if run else bool(solution.program) and failed)
        self.editor.mark_error_line(solution.error_line or 0)
        self.editor.mark_emulated_lines(frozenset(step.line for step in solution.code_steps if step.emulated))

    def _on_run_changed(self, run: RunView) -> None:
        self.editor.mark_error_line(run.error_line or 0)
        self.repair_button.setEnabled(not run.ok)

    def append(self, text: str) -> None:
        """Streamed reply text: the editor shows the program in it as it grows, fences hidden."""
        self._stream += text
        show_growing(self.editor, streamed_program(self._stream))
