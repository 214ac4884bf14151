"""The right-hand pane: the answer (large, and typeset when it is math), the status line, and tabs
for the program's output, stepping through a trace and the variables; copy and export buttons.

A view of `Work` (what is solved, run, reopened) and `Events` (a vote's columns as they are
written, chain of thought's words): it draws from them itself; the window handles its buttons.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.reasoning import SolveStatus, TokenStreamed
from app.reasoning.answer_table import AnswerTable, table_of, wants_chart
from app.reasoning.answer_units import dressed, needs_calculation
from app.reasoning.events import (
    FirstAnswer,
    LaneFinished,
    LaneStreamed,
    LanesWaiting,
    ModelStarted,
    VoteStarted,
)
from app.reasoning.graphs import Graph
from app.reasoning.how_checked import how_checked
from app.reasoning.methods import vote
from app.reasoning.numbers import vote_key
from app.reasoning.plain_math import plain_math
from app.reasoning.rivals import rivals
from app.reasoning.runs import RunView, error_text
from app.reasoning.short_answer import shown_answer, shown_answers
from app.reasoning.solution import Solution
from app.reasoning.working import worked_solution
from app.ui.background import Background
from app.ui.charts import equation_graph_png
from app.ui.code_editor import monospace
from app.ui.compare_view import CompareView
from app.ui.controller import NO_ANSWER_TO_CHECK, NO_PROGRAM_TO_VARY, NOTHING_SOLVED, NOTHING_TO_VARY
from app.ui.events import Events
from app.ui.lanes_view import LanesView
from app.ui.layouts import ScrolledLabel
from app.ui.math_view import Formulas
from app.ui.picture import Picture
from app.ui.plain import Label, heading, tip
from app.ui.stepper import Stepper
from app.ui.table_view import TableView, picture
from app.ui.work import Work
from app.ui.working_view import WorkingView
from sandbox import CapturedValue, TraceStep
from sandbox.display import display_text

_ANSWER_CHARS = 80
_NOTE_LINES = 5  # the vote line and notes shown at once; more scroll (the tabs keep their room at 150 %)


def _nothing_to_calculate(solution: Solution) -> bool:
    """A question with nothing to calculate ("Who wrote Hamlet?") answered in words: not a
    question over the user's data (those need no numbers in the question), not a number."""
    over_data = any("tables" in program for program in solution.programs if program)
    in_words = solution.answer is None or not any(ch.isdigit() for ch in solution.answer)
    return bool(solution.question.strip()) and in_words and not over_data and not needs_calculation(solution.question)


def _on_demand_tabs(pane: OutputPane) -> tuple[QWidget, ...]:
    """The tabs shown only while they have content; Output, Working, Step through and Variables stay."""
    return (pane.steps, pane.vote_tab, pane.compare, pane.graph, pane.table_view)


class _VoteList(QListWidget):
    """The vote's list under its columns: it asks for three lines, not Qt's 192 px, so that when its
    first line appears the columns being written keep the room (at 150 % on a 768 px screen
    they were left 82 px)."""

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(super().sizeHint().width(), 3 * self.fontMetrics().lineSpacing() + 2 * self.frameWidth())


class OutputPane(QWidget):
    """Signals: sample_chosen(str: "Program 3 of 5", str: its program), graph_shown() — an
    equation's graph (or the note that it could not be drawn) is in place."""

    sample_chosen = Signal(str, str)
    graph_shown = Signal()

    def __init__(self, work: Work, events: Events, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._work = work
        self._reasoning_from: int | None = None  # where chain of thought's streamed words begin in Output
        self.answer = Label("")
        self.full_answer = ""
        self.answer.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.answer.setWordWrap(True)
        # An answer may be one long unbreakable string: the pane's width decides, never the answer.
        self.answer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        font = QFont(self.answer.font())
        font.setPointSize(font.pointSize() * 2)
        font.setBold(True)
        self.answer.setFont(font)
        self.math = Label("")
        self.votes = Label("")  # how the answer was reached when it was not one program's output
        notes = ScrolledLabel(self.votes, _NOTE_LINES)
        self.status_label = Label("Starting…")
        self.status_label.setWordWrap(True)  # a long message wraps; it never widens the window
        # PoT without ans: PAL's reading of the output, offered with its label, never taken silently.
        self.alternative_button = QPushButton("")
        self.alternative_button.setVisible(False)
        self._vote_answers: list[str | None] = []  # a vote in progress
        self._checking: str | None = None  # the first answer shown while the vote goes on
        self._working_before = False  # the Working tab was in front when the vote's columns came forward
        self._build_tabs()
        self.copy_answer_button = QPushButton("Copy answer")
        self.copy_program_button = QPushButton("Copy program")
        self.export_button = QPushButton("Export…")
        buttons = QHBoxLayout()
        for button in (self.copy_answer_button, self.copy_program_button, self.export_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        widgets = (
            heading("Answer"),
            self.answer,
            self.math,
            notes,
            self.alternative_button,
            self.status_label,
        )
        for widget in (*widgets, self.tabs):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        self.show_math(None)
        self.votes.setVisible(False)
        self._subscribe(work, events)

    def _subscribe(self, work: Work, events: Events) -> None:
        work.started.connect(self.clear)
        work.solution_changed.connect(self._on_solution_changed)
        work.run_changed.connect(self._on_solve_ran)
        work.graph_changed.connect(self.show_graph)
        work.forgotten.connect(self.forget_answer)
        work.revealed.connect(self._on_revealed)
        self.working.finished_trying.connect(work.reveal)
        self.working.attempted.connect(work.attempted)
        work.tally_changed.connect(lambda: self.working.show_tally(work.tally, work.attempts))
        self.working.show_tally(work.tally, work.attempts)
        work.checked_changed.connect(lambda: self.working.show_checked(work.checked))
        events.subscribe(TokenStreamed, self._on_token)
        events.subscribe(ModelStarted, self._on_model_started)
        events.subscribe(VoteStarted, self._on_vote_started)
        events.subscribe(LaneStreamed, lambda streamed: self.lanes.append(streamed.lane, streamed.text))
        events.subscribe(LaneFinished, self._on_lane_finished)
        events.subscribe(FirstAnswer, self._on_first_answer)
        events.subscribe(LanesWaiting, lambda waiting: self.lanes.wait(waiting.lanes, waiting.reason))

    def _on_model_started(self, started: ModelStarted) -> None:
        """Chain of thought checking a program's answer: its words under what the program printed."""
        printed = self.output.toPlainText()
        if started.purpose == "reasoning" and printed and not self._work.try_yourself:
            self.append_output(("\n" if printed.endswith("\n") else "\n\n") + "Chain of thought, checking it:\n")
            self._reasoning_from = len(self.output.toPlainText())

    def _on_token(self, token: TokenStreamed) -> None:
        if token.purpose == "reasoning" and not self._work.try_yourself:  # chain of thought's words: under Output
            self.append_output(token.text)

    def _on_solution_changed(self, solution: Solution) -> None:
        """A solve, a hand run, a reopened solve or a chosen reading: every part from `solution`,
        so nothing of an earlier result stays on screen; then the tab that matters comes forward."""
        origin, run = self._work.origin, self._work.last_run
        if origin == "run" and run is not None:
            self._show_run(run)
        elif origin in ("reopen", "practice") or _not_taken(solution, run):
            if origin == "solve":  # the vote's list and columns stay; the steps were of the program not kept
                self.stepper.load((), "")
            else:
                self.clear()
            error = error_text(solution.error, solution.program or "", solution.error_line) if solution.error else ""
            self.show_output(solution.output + (f"\n{error}" if error else ""))
        self.show_solution(solution, self._work.trace, trying=self._work.hiding)
        if origin in ("solve", "reopen") and not self._work.hiding:  # each method's answer is there
            self.show_samples(solution)
        if origin == "solve" and solution.status is SolveStatus.NO_PROGRAM:  # prose, not a program
            self.show_output(solution.calls[-1].reply if solution.calls else "")
        elif origin == "solve" and solution.program is None and solution.finish_reply:  # chain of thought
            self.show_output(solution.finish_reply)
        elif origin == "solve" and self._reasoning_from is not None:
            self._plain_reasoning(solution, self._reasoning_from)
        front = self._front_tab(solution, trace=origin == "run" and run is not None and bool(run.trace))
        if front is None and origin == "solve" and self._working_before:  # a student's place, given back
            front = self.working
        if front is not None:
            self.bring_forward(front)

    def _plain_reasoning(self, solution: Solution, start: int) -> None:
        """Chain of thought's words, streamed as the model wrote them (in LaTeX half the time: "\\( S
        \\)"), once it has ended as the plain text its answer was read from (cancelled: as far as it got)."""
        shown = self.output.toPlainText()
        kept = next((s.reasoning for s in solution.sampled if s.method == "cot" and s.reasoning), None)
        self.show_output(shown[:start] + (kept or plain_math(shown[start:])))

    def _on_solve_ran(self, run: RunView) -> None:
        """A program of the solve in progress ran: shown at once, unless the student tries the
        question first (PAL's printed answer would stand there while chain of thought checks it)."""
        if self._work.try_yourself:
            self.show_output("Hidden while you try it yourself.")
        else:
            self._show_run(run)

    def _show_run(self, run: RunView) -> None:
        self.show_output(run.text)
        self.show_variables(run.values)
        # A run without a trace clears the stepper (and the editor's ▶ line): its steps were of
        # an earlier run, perhaps of another program.
        self.stepper.load(run.trace or (), run.stdout, run.program)

    def _build_tabs(self) -> None:
        self.drawing = Background(self)  # charts, graphs and formulas, off the UI thread and the model's
        self.formulas = Formulas(self.drawing, self)  # the answer's own formula (self.math)
        self.formulas.typeset.connect(self._on_math_typeset)
        self.output = QPlainTextEdit(readOnly=True)
        self.output.setFont(monospace())
        self.stepper = Stepper()
        self.variables = QTableWidget(0, 3)
        self.variables.setHorizontalHeaderLabels(["variable", "value", "type"])
        self.variables.horizontalHeader().setStretchLastSection(True)
        self.steps = QTreeWidget()  # IIPC's timeline, Chain of Code's emulated lines
        self.steps.setHeaderHidden(True)
        self.steps.setWordWrap(True)
        self.working = WorkingView(self.drawing)  # the worked solution, as mathematics
        self.tabs = QTabWidget()
        self.tabs.addTab(self.output, "Output")
        self.tabs.addTab(self.working, "Working")
        self.tabs.addTab(self.stepper, "Step through")
        self.tabs.addTab(self.variables, "Variables")
        self.tabs.addTab(self.steps, "Steps")
        self.lanes = LanesView()  # a vote's solves side by side as they are written
        self.samples = _VoteList()  # a vote's programs, "Program 3 of 5: 18"; click one to open it
        self.samples.setWordWrap(True)
        self.vote_tab = QSplitter(Qt.Orientation.Vertical)
        self.vote_tab.addWidget(self.lanes)
        self.vote_tab.addWidget(self.samples)
        self.vote_tab.setStretchFactor(0, 3)
        self.tabs.addTab(self.vote_tab, "Programs")
        self.compare = CompareView()  # the leading answers side by side when they disagree
        self.tabs.addTab(self.compare, "Compare")
        self.samples.itemClicked.connect(self._on_samples_item_clicked)
        self.graph = Picture()  # an equation's graph, drawn here from the sandbox's sample points
        self.graph_pixmap: QPixmap | None = None
        self._graphs = 0  # which show_graph call a drawing that arrives belongs to
        self.tabs.addTab(self.graph, "Graph")
        self.table_view = TableView(self.drawing)  # an answer that is rows (questions over a data file)
        self.tabs.addTab(self.table_view, "Table")
        for tab in _on_demand_tabs(self):
            self._offer(tab, False)

    def _offer(self, tab: QWidget, shown: bool) -> None:
        """Show `tab` only while it has something (a narrow column cannot hold nine tabs); when
        the one in front goes, Output comes forward."""
        index = self.tabs.indexOf(tab)
        if shown == self.tabs.isTabVisible(index):
            return
        if not shown and self.tabs.currentWidget() is tab:
            self.tabs.setCurrentWidget(self.output)
        self.tabs.setTabVisible(index, shown)

    def bring_forward(self, tab: QWidget) -> None:
        """`tab` in front (shown first if it was hidden)."""
        self._offer(tab, True)
        self.tabs.setCurrentWidget(tab)

    def step_key(self, keys: str) -> None:
        """A stepper key pressed anywhere in the window: the stepper comes forward and steps."""
        self.bring_forward(self.stepper)
        self.stepper.keys[keys].click()

    def clear(self) -> None:
        """Forget everything shown: a new solve or a reopened one must not show the last one's parts."""
        self._reasoning_from, self._working_before = None, False
        self.output.clear()
        self.answer.clear()
        self.show_math(None)
        self.votes.clear()
        self.votes.setVisible(False)
        self.alternative_button.setVisible(False)
        self.steps.clear()
        self.stepper.load((), "")
        self.show_variables({})
        self.table_view.show_table(None, chart=False)
        self.samples.clear()
        self.lanes.clear()
        self.compare.show_rivals([])
        self.working.show_steps([])
        self.working.offer_checks(NOTHING_SOLVED, NOTHING_TO_VARY)
        self.show_graph(None)
        for tab in _on_demand_tabs(self):
            self._offer(tab, False)

    def restore(self, work: dict[str, str]) -> None:
        """The answer, output and working kept when PAL Studio stopped, as text only."""
        self.show_answer(work.get("answer") or None)
        self.show_output(work.get("output", ""))
        self.working.restore(work.get("working", ""))

    def forget_answer(self) -> None:
        """The question changed: the answer, the vote and its columns belonged to the old one."""
        self.show_answer(None)
        self.show_math(None)
        self.votes.clear()
        self.votes.setVisible(False)
        self.alternative_button.setVisible(False)
        self.samples.clear()
        self.lanes.clear()
        self.compare.show_rivals([])
        self._offer(self.vote_tab, False)
        self._offer(self.compare, False)
        self.working.offer_checks(NOTHING_SOLVED, NOTHING_TO_VARY)

    def show_steps(self, solution: Solution) -> None:
        """IIPC's timeline (each step expands to its full text) or Chain of Code's emulated lines."""
        self.steps.clear()
        for step in solution.timeline:
            mark = {True: "✓ ", False: "✗ ", None: ""}[step.ok]
            item = QTreeWidgetItem([mark + step.title])
            detail = QTreeWidgetItem([display_text(step.text)])
            detail.setFont(0, monospace())
            item.addChild(detail)
            self.steps.addTopLevelItem(item)
        emulated = [line for line in solution.code_steps if line.emulated]
        if emulated:
            ran = len(solution.code_steps) - len(emulated)
            self.steps.addTopLevelItem(QTreeWidgetItem([f"{ran} steps ran in Python, {len(emulated)} were emulated"]))
        for line in emulated:
            values = ", ".join(f"{name} = {value}" for name, value in line.values.items()) or "no change"
            self.steps.addTopLevelItem(QTreeWidgetItem([display_text(f"line {line.line}, emulated: {values}")]))
        self._offer(self.steps, bool(solution.timeline or emulated))

    def show_how(self, solution: Solution, *, trying: bool = False) -> None:
        """The vote's tally (self-consistency) and whether chain of thought gave the answer; while
        the student tries it, only how it was checked (the tally and the notes name the answer)."""
        if trying:
            self.votes.setToolTip("")
            self.votes.setText(f"Checked: {solution.confidence.words}" if solution.answered else "")
            self.votes.setVisible(solution.answered)
            return
        detail = solution.confidence  # in detail, and how often answers checked this way were right
        self.votes.setToolTip(
            display_text(f"{detail.text[:1].upper()}{detail.text[1:]}. {detail.measured}") if solution.answered else ""
        )
        lines = [display_text(line) for line in how_checked(solution)]
        if _nothing_to_calculate(solution):
            said = (
                f" The model's answer in words: {display_text(shown_answer(solution.answer))}."
                if solution.answer
                else ""
            )
            lines.insert(
                0, f"PAL Studio is for questions that need calculation; this one has nothing to calculate.{said}"
            )
        self.votes.setText("\n".join(lines))
        self.votes.setVisible(bool(lines))

    def show_graph(self, graph: Graph | None) -> None:
        self._graphs += 1
        self.graph_pixmap = None
        self._offer(self.graph, graph is not None)
        if graph is None:
            self.graph.setText("An equation's graph appears here.")
            return
        self.graph.setText("Drawing the graph…")
        shown = self._graphs
        self.drawing.submit(
            lambda _report: equation_graph_png(graph),
            on_success=lambda png: self._on_graph(shown, picture(png)),
            on_failure=lambda _error: self._on_graph(shown, None),
            name="graph",
        )

    def _on_graph(self, shown: int, pixmap: QPixmap | None) -> None:
        if shown != self._graphs:
            return  # another solve's graph (or none) is shown since
        self.graph_pixmap = pixmap
        if pixmap is None:
            self.graph.setText("The graph could not be drawn.")
        else:
            self.graph.show_picture(pixmap)
        self.graph_shown.emit()

    def shutdown(self) -> None:
        """Stop the drawing thread (the window is closing)."""
        self.drawing.shutdown()

    def show_solution(self, solution: Solution, trace: tuple[TraceStep, ...] | None, *, trying: bool) -> None:
        """Every part of the answer pane from `solution`; with `trying`, the student works it out
        first: the answer, what the program printed, its values and the vote's tally wait until
        they ask (Working tab)."""
        self._solution = solution
        self.show_answer(solution.answer, question=solution.question)
        self.show_alternative(solution.alternative)
        self.show_math(solution.ans.latex if solution.ans and not trying else None)
        self.show_variables({} if trying else solution.variables)  # the answer is among the values
        self.show_how(solution, trying=trying)
        self.show_steps(solution)
        self.show_table(table_of(solution.variables, solution.answer), chart=wants_chart(solution.question))
        if not trying and self.lanes.hiding:  # tried but not hidden (no answer): the columns say all
            self.lanes.reveal()
        if trying:  # the steps' values, the rows and the rivals side by side all say the answer
            for tab in (self.steps, self.table_view, self.compare):
                self._offer(tab, False)
        steps = worked_solution(
            solution.program, solution.variables, solution.question, trace, solution.output,
            answered=solution.answered,
        )  # fmt: skip
        self.working.working_for(solution.question, fresh=self._work.origin == "practice")
        self.working.show_steps(steps, try_answer=solution.answer if trying else None)
        unanswered = "" if solution.answered else NO_ANSWER_TO_CHECK
        self.working.offer_checks(unanswered, unanswered or ("" if solution.program else NO_PROGRAM_TO_VARY))
        if trying:
            self.answer.setText("Hidden: try it first")
            self.answer.setToolTip("Work it out in the Working tab; the answer shows when you get it or give up")
            self.output.setPlainText("Hidden while you try it yourself.")

    def _on_revealed(self) -> None:
        solution = self._work.solution
        if solution is not None:
            self.lanes.reveal()
            if self._work.origin in ("solve", "reopen"):
                self.show_samples(solution)
            self.show_steps(solution)
            self.show_table(table_of(solution.variables, solution.answer), chart=wants_chart(solution.question))
            self.show_how(solution)
            self.show_variables(solution.variables)
            self.show_math(solution.ans.latex if solution.ans else None)
            self.show_answer(solution.answer, question=solution.question)
            self.show_output(solution.output)

    def _on_vote_started(self, started: VoteStarted) -> None:
        if started.first_lane:  # a second round: its columns join the first round's
            self.lanes.add(list(started.lanes))
        else:
            self.start_vote(list(started.lanes))

    def start_vote(self, labels: list[str]) -> None:
        """A vote begins: its solves' columns, side by side, fill as the model writes them."""
        self._vote_answers = []
        self.lanes.hiding = self._work.try_yourself
        self.samples.clear()
        self.samples.setVisible(False)  # until a solve has run: the columns take the room
        self.lanes.start(labels)
        self._working_before = self.tabs.currentWidget() is self.working
        self.bring_forward(self.vote_tab)

    def _on_first_answer(self, first: FirstAnswer) -> None:
        """A vote's first answer, at once, marked as not yet checked (never while the student
        tries it first); the vote's answer replaces it."""
        if self._work.try_yourself:
            return
        self.show_answer(first.answer, question=self._work.asked)
        self._checking = self.answer.text()
        self.answer.setText(f"{self._checking}  (checking…)")
        self.votes.setText(f"First answer, from {first.label}: the other methods are still checking it")
        self.votes.setVisible(True)

    def _on_lane_finished(self, done: LaneFinished) -> None:
        if done.needed:
            self.lane_finished(done.lane, done.answer, done.program)
        else:
            self.lanes.not_needed(done.lane)

    def lane_finished(self, lane: int, answer: str | None, program: str | None) -> None:
        """One solve of the vote has run: its answer in its column and in the list (a click opens
        its program), and the tally so far."""
        self.lanes.finish(lane, answer)
        self._vote_answers.append(answer)
        label = self.lanes.headers[lane].text() if lane < len(self.lanes.headers) else f"Solve {lane + 1}"
        item = QListWidgetItem(label)
        item.setData(Qt.ItemDataRole.UserRole, program or "")
        self.samples.addItem(item)
        self.samples.setVisible(True)
        if self._work.try_yourself:
            return  # the tally says the answer
        votes = vote(self._vote_answers)
        shown = shown_answers([v.answer for v in votes])
        tally = (f"{display_text(text)} ×{v.count}" for v, text in zip(votes, shown, strict=True))
        so_far = ", ".join(tally) or "no answers yet"
        self.votes.setText(f"Vote so far: {so_far}")
        self.votes.setVisible(True)
        if self._checking is not None and len(votes) > 1:  # the first answer is no longer unopposed
            self.answer.setText(f"{self._checking}  (disputed…)")

    def show_samples(self, solution: Solution) -> None:
        """Each program of a vote with its answer, those that agree with the winner marked; the
        leading answers side by side (Compare), opened when the support is weak."""
        self.samples.clear()
        self.samples.setVisible(True)
        found = rivals(solution)
        self.compare.show_rivals(found)
        self._offer(self.vote_tab, bool(solution.sampled))
        self._offer(self.compare, len(found) >= 2)
        winner = vote_key(solution.answer) if solution.answer else None
        for sample in solution.sampled:
            if sample.answer is None:
                said = "failed"
            else:
                said = display_text(shown_answer(sample.answer))
                said += " — agrees with the answer" if vote_key(sample.answer) == winner else ""
            if sample.redone is not None:  # its arithmetic slipped: what it gives redone in the sandbox
                agrees = " — agrees with the answer" if vote_key(sample.redone) == winner else ""
                said += f"; its arithmetic redone: {display_text(shown_answer(sample.redone))}{agrees}"
            item = QListWidgetItem(f"{display_text(sample.label)}: {said}")
            item.setData(Qt.ItemDataRole.UserRole, sample.program or "")
            if not sample.program:
                in_words = sample.method == "cot"
                item.setToolTip("Chain of thought answers in words" if in_words else "This sample wrote no program")
            self.samples.addItem(item)

    def _on_samples_item_clicked(self, item: QListWidgetItem) -> None:
        program = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(program, str) and program:
            self.sample_chosen.emit(item.text().split(":")[0].removesuffix(" …"), program)

    def show_table(self, table: AnswerTable | None, *, chart: bool) -> None:
        """Rows the program returned, with a chart when the question asked for one."""
        self.table_view.show_table(table, chart=chart)
        self._offer(self.table_view, table is not None)

    def show_alternative(self, text: str | None) -> None:
        """Offer PAL's reading of the output when the program did not set `ans` (PoT)."""
        if text:
            shown = display_text(text if len(text) <= 40 else text[:39] + "…")
            self.alternative_button.setText(f"Use the printed output as the answer: {shown} (PAL's reading)")
        self.alternative_button.setVisible(bool(text))

    def show_answer(self, text: str | None, *, question: str = "") -> None:
        """The answer, large: with the money sign or unit the question asks for ("$66.00"), rows or
        a long list as "30 rows — see Table", a very long text cut with "…" (all of it in the
        tooltip and Copy answer, which copies the answer itself)."""
        full = display_text(text) if text else "—"
        self.full_answer = full
        self._checking = None  # the vote's answer, or another, replaces a first answer
        shown = display_text(dressed(shown_answer(text), question)) if text else "—"
        self.answer.setText(shown if len(shown) <= _ANSWER_CHARS else shown[: _ANSWER_CHARS - 1] + "…")
        self.answer.setToolTip(tip(full) if full != self.answer.text() else "")

    def show_output(self, text: str) -> None:
        self._reasoning_from = None
        self.output.setPlainText(display_text(text))

    def append_output(self, text: str) -> None:
        """Chain of thought's words as they stream, under Output (the editor is for programs)."""
        cursor = self.output.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(display_text(text))
        self.output.setTextCursor(cursor)

    def show_math(self, latex: str | None) -> None:
        self.formulas.clear()
        self.math.clear()
        if latex:
            self.formulas.show(self.math, latex, size=1.6, text="")
        self._on_math_typeset()

    def _on_math_typeset(self) -> None:
        self.math.setVisible(not self.math.pixmap().isNull())  # shown once its picture is there

    def show_variables(self, values: dict[str, CapturedValue]) -> None:
        self.variables.setRowCount(len(values))
        for row, (name, value) in enumerate(values.items()):
            for column, text in enumerate((name, display_text(value.repr), value.type)):
                self.variables.setItem(row, column, QTableWidgetItem(text))

    def _front_tab(self, solution: Solution, *, trace: bool) -> QWidget | None:
        """The one tab that matters after a solve, run or reopen (None: the one in front stays): the
        Working tab while the student tries it; what was printed and the error when it failed; the
        stepped-through run (the user asked for it); the leading answers side by side when the
        support is weak; the rows; the steps of a method that reports them."""
        weak = solution.answered and not solution.confidence.confident
        shown = {tab: self.tabs.isTabVisible(self.tabs.indexOf(tab)) for tab in _on_demand_tabs(self)}
        choices = (
            (self.working, self._work.hiding),
            (self.output, not solution.answered),
            (self.stepper, trace),
            (self.compare, shown[self.compare] and weak),
            (self.table_view, shown[self.table_view]),
            (self.steps, shown[self.steps]),
        )
        return next((tab for tab, wanted in choices if wanted), None)


def _not_taken(solution: Solution, run: RunView | None) -> bool:
    """A solve's last run was of a program the solve did not keep (a second look over data that
    failed; PoT's, where PAL's answer won the vote): the output shown must be that of the program
    that stands."""
    return run is not None and solution.program is not None and run.program != solution.program
