"""The main window: question, program editor, execution output and repair controls in panes.

Views only: every action goes to the `SolveController`, every result comes back as a signal, and
whatever the window shows of a solve, a hand run or a reopened past solve goes through one
`show_solution`. The panes build themselves (`QuestionPane`, `ProgramPane`, `OutputPane`); the
window wires them and keeps the current solution. Signals of child widgets are handled by
`_on_<signal>` slots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QMainWindow, QSplitter

from app.export import export_text
from app.paths import AppPaths
from app.reasoning import Solution, SolveStatus
from app.reasoning.answer_table import table_of
from app.reasoning.graphs import wants_graph
from app.reasoning.methods import DATA_METHODS, DEFAULT_METHOD, Method
from app.reasoning.runs import RunView, error_text, speed_text, status_detail
from app.settings import Settings
from app.ui.controller import ModelFactory, SolveController
from app.ui.data_files import DataFiles
from app.ui.dialogs import confirmed, consent_to_unisolated, csv_path, export_path
from app.ui.history_panel import HistoryPanel
from app.ui.keyboard import SHORTCUTS, KeyboardDialog
from app.ui.layouts import column
from app.ui.output_pane import OutputPane
from app.ui.phase_ticker import PhaseTicker
from app.ui.plain import Label, tip
from app.ui.program_pane import ProgramPane
from app.ui.question_pane import QuestionPane
from app.ui.restore_bar import RestoreBar
from app.ui.settings_dialog import SettingsDialog
from app.ui.welcome import WelcomeDialog, open_welcome, when_ready
from app.ui.window_layout import WindowLayout
from app.ui.work import Work
from app.ui.work_keeper import WorkKeeper

_STATUS_LABEL_WIDTH = 320
NO_PROGRAM_TEXT = (
    "The model answered in words and wrote no program (its reply is under Output). PAL Studio answers "
    "questions that need calculation; for others, try 'Explain in words', or add the numbers involved."
)


class MainWindow(QMainWindow):
    def __init__(
        self,
        controller: SolveController,
        *,
        paths: AppPaths,
        settings: Settings,
        factory_for: Callable[[Settings], ModelFactory] | None = None,
        show_welcome: bool = False,
        crash_report: Path | None = None,
    ) -> None:
        """Built by `app.ui.app.compose`. Every file the window writes is under `paths`;
        `crash_report` names the report a native crash of the last session left, if any."""
        super().__init__()
        self.setWindowTitle("PAL Studio")
        self.setAcceptDrops(True)  # a data file dropped anywhere on the window is opened
        self.paths, self.recovery_path, self.settings = paths, paths.recovery, settings
        self.controller = controller
        controller.setParent(self)
        self._factory_for = factory_for
        self._layout_store = QSettings(str(paths.window_state), QSettings.Format.IniFormat)
        self.work = Work()  # the one current piece of work every pane shows
        self._before_repair: str | None = None  # the program a requested repair would replace
        self._ready_text = "Ready."
        self._build()
        self.work_keeper = WorkKeeper(paths.recovery, self.current_work, self.restore_bar, self)
        self.data_files = DataFiles(controller, self.question_pane, self)
        self.ticker = PhaseTicker(self)
        self._connect()
        self.layout_keeper.restore()
        self.question_pane.pick_method(self._layout_store.value("solve/method", DEFAULT_METHOD))
        if not self.work_keeper.offer(crash_report) and crash_report:
            self._show_status(f"PAL Studio stopped unexpectedly last time; the report is in {crash_report}.")
        self.welcome: WelcomeDialog | None = None
        if show_welcome:
            self._open_welcome()

    def _build(self) -> None:
        q = self.question_pane = QuestionPane()
        p = self.program_pane = ProgramPane()
        o = self.output_pane = OutputPane()
        # The panes' widgets under the names the rest of the window (and its tests) use.
        self.question, self.table, self.method, self.auto_repair = q.question, q.table, q.method, q.auto_repair
        self.solve_button, self.cancel_button, self.settings_button = q.solve_button, q.cancel_button, q.settings_button
        self.editor, self.run_button, self.trace_button = p.editor, p.run_button, p.trace_button
        self.repair_button, self.repair_view = p.repair_button, p.repair_view
        self.diff, self.accept_button = p.repair_view.diff, p.repair_view.accept_button
        self.answer, self.math, self.status_label, self.output = o.answer, o.math, o.status_label, o.output
        self.stepper, self.variables, self.tabs = o.stepper, o.variables, o.tabs
        self.history_panel = HistoryPanel(self.controller.history)
        self.splitter = QSplitter()
        for pane in (self.history_panel, q, p, o):
            self.splitter.addWidget(pane)
        self.restore_bar = RestoreBar()
        self.setCentralWidget(column(self.restore_bar, self.splitter))
        self.model_label, self.speed_label, self.isolation_label = Label("model: loading…"), Label(), Label()
        for label in (self.model_label, self.speed_label, self.isolation_label):
            label.setMaximumWidth(_STATUS_LABEL_WIDTH)  # a long model name is cut, not a wider window
            self.statusBar().addPermanentWidget(label)
        self.layout_keeper = WindowLayout(self, self.splitter, self.history_panel, self._layout_store)
        self._shown_once = False
        self.layout_keeper.reset()  # last: it measures the finished window against the screen

    def _connect(self) -> None:
        c, keeper = self.controller, self.work_keeper
        c.model_ready.connect(self._on_model_ready)
        c.model_failed.connect(self._on_model_failed)
        c.busy.connect(self._on_busy)
        c.phase.connect(self.ticker.set_phase)
        c.token.connect(self.program_pane.append)
        c.reasoning_token.connect(self.output_pane.append_output)
        c.program.connect(self._on_program)
        c.vote_started.connect(lambda lanes: self.output_pane.start_vote(list(lanes)))
        c.lane_text.connect(self.output_pane.lanes.append)
        c.lanes_waiting.connect(self.output_pane.lanes.wait)
        c.lane_finished.connect(self.output_pane.lane_finished)
        c.solved.connect(self._on_solved)
        c.run_shown.connect(self._on_run_shown)
        c.hand_run.connect(self.show_solution)
        c.repaired.connect(self._on_repaired)
        c.repair_token.connect(self.repair_view.stream)
        c.explain_token.connect(self.program_pane.explain_stream)
        c.graph_ready.connect(self.output_pane.show_graph)
        c.explained.connect(self.program_pane.explained)
        self.program_pane.explain_button.clicked.connect(self.explain_line)
        c.failed.connect(lambda message: self._show_status(f"Something went wrong: {message}"))
        c.history_changed.connect(self.history_panel.refresh)
        c.isolation.connect(self._on_isolation)
        self.data_files.status.connect(self._show_status)
        self.data_files.changed.connect(keeper.changed)
        self.output_pane.table_view.export_requested.connect(self._on_table_export_requested)
        self.ticker.text.connect(self._show_status)
        self.history_panel.reopen.connect(self._on_history_reopen)
        for changed in (self.question.textChanged, self.table.textChanged, self.editor.textChanged, c.solved, c.ran):
            changed.connect(keeper.changed)
        self._connect_current_work()
        keeper.restored.connect(self._on_work_restored)
        keeper.save_failed.connect(lambda message: self.statusBar().showMessage(message, 10_000))
        self.solve_button.clicked.connect(self.solve)
        self.cancel_button.clicked.connect(self.cancel)
        self.settings_button.clicked.connect(self.open_settings)
        self.run_button.clicked.connect(self.run_program)
        self.trace_button.clicked.connect(self.trace_program)
        self.repair_button.clicked.connect(self.repair)
        self.repair_view.accepted.connect(self.run_program)
        self.stepper.line_changed.connect(self.editor.mark_step_line)
        o = self.output_pane
        o.copy_answer_button.clicked.connect(lambda: self._copy(o.full_answer, "the answer"))
        o.copy_program_button.clicked.connect(lambda: self._copy(self.editor.toPlainText(), "the program"))
        o.export_button.clicked.connect(self._on_export_clicked)
        o.alternative_button.clicked.connect(self._on_alternative_clicked)
        o.sample_chosen.connect(self._on_sample_chosen)
        self._bind_keys()

    def _bind_keys(self) -> None:
        """The shortcuts of app.ui.keyboard (the one table the Help dialog and README list) and the
        Help menu (the focus ring is the application's: app.ui.app.compose)."""
        step = self.output_pane.step_key
        slots = {
            "solve": self.solve, "run_program": self.run_program, "trace_program": self.trace_program,
            "cancel": self.cancel, "explain_line": self.explain_line, "open_data": self.data_files.choose,
            "search_history": self.search_history, "toggle_history": self.toggle_history,
            "focus_question": self.question.setFocus, "focus_program": self.editor.setFocus,
            "focus_output": self.output.setFocus, "step_back": lambda: step("Alt+Left"),
            "step_forward": lambda: step("Alt+Right"), "step_first": lambda: step("Alt+Home"),
            "step_last": lambda: step("Alt+End"), "open_settings": self.open_settings,
            "show_keyboard": self.show_keyboard,
        }  # fmt: skip
        for keys, slot, _words in SHORTCUTS:
            QShortcut(QKeySequence(keys), self, slots[slot])
        QShortcut(QKeySequence("Ctrl+Enter"), self, self.solve)  # the keypad's Enter
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction("&Keyboard shortcuts", self.show_keyboard)

    def show_keyboard(self) -> None:
        """F1: every shortcut, in a window of its own."""
        KeyboardDialog(self).exec()

    def reset_layout(self) -> None:
        """The default size, shrunk to the screen and centred on it."""
        self.layout_keeper.reset()

    def search_history(self) -> None:
        """Ctrl+F: the history's search box (the history is shown first if it was hidden)."""
        self.history_panel.setVisible(True)
        self.history_panel.search.setFocus()
        self.history_panel.search.selectAll()

    def toggle_history(self) -> None:
        """Ctrl+H: hide the history for more room, or show it again."""
        self.history_panel.setVisible(not self.history_panel.isVisible())

    # -- actions ----------------------------------------------------------------------------

    def full_question(self) -> str:
        return self.question_pane.full_question()

    def solve(self) -> None:
        if self.controller.is_busy or not self._may_run_programs():
            return
        question = self.full_question()
        if not question:
            self._show_status("Type a question first.")
            return
        method = self.question_pane.method_name()
        data = self.data_files.data
        if data is not None and Method.parse(method).base not in DATA_METHODS:
            self._show_status("Questions about a data file need a program: choose a PAL or PoT method.")
            return
        self.program_pane.start_over()
        self.output_pane.clear()
        self.work.start_over()
        repair = self.auto_repair.isChecked()
        self.controller.solve(question, method, repair=repair, settings=self.settings, data=data)

    def run_program(self, *, trace: bool = False) -> None:
        code = self.editor.toPlainText()
        if self.controller.is_busy or not code.strip() or not self._may_run_programs():
            return
        self.program_pane.clear_marks()  # a plain run emulates nothing
        self.controller.run_program(
            code, settings=self.settings, trace=trace, question=self.full_question(), edits=self.work.solve,
            data=self.data_files.data,
        )  # fmt: skip

    def trace_program(self) -> None:
        """Run the program recording every step, then show the stepper."""
        self.run_program(trace=True)

    def repair(self) -> None:
        run = self.work.last_run
        if self.controller.is_busy or run is None:
            return
        self._before_repair = self.editor.toPlainText()
        self.controller.repair(self.full_question(), self._before_repair, run.error or "")

    def explain_line(self) -> None:
        """Ctrl+E: the model explains the line the cursor is on (streamed; Esc stops it)."""
        program, number = self.editor.toPlainText(), self.program_pane.current_line()
        lines = program.splitlines()
        if self.controller.is_busy or not 0 < number <= len(lines) or not lines[number - 1].strip():
            return
        self.program_pane.start_explaining(number)
        self.controller.explain_line(self.full_question(), program, number)

    def export_to(self, path: Path) -> None:
        """Write the current solve as Markdown, Python or a notebook, chosen by the file's suffix."""
        if self.work.solution is None:
            raise ValueError("nothing to export yet")
        text = export_text(self.work.solution, path.suffix, self.work.trace)
        graph = self.output_pane.graph_pixmap
        if graph is not None and path.suffix == ".md":  # the figure beside the Markdown, linked from it
            picture = path.with_name(f"{path.stem}-graph.png")
            graph.save(str(picture))
            text += f"\n![Graph of the equation]({picture.name})\n"
        path.write_text(text, encoding="utf-8")

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings(dialog.result_settings())

    def apply_settings(self, settings: Settings) -> None:
        """Keep `settings` (saved at once); load the model again if it is a different one, and
        start the other sandbox if that changed."""
        previous, self.settings = self.settings, settings
        self.controller.save_settings(settings)
        if settings.sandbox != previous.sandbox and not self.controller.is_busy:
            self.isolation_label.setText("sandbox: starting…")
            self.controller.use_sandbox(settings.sandbox)
        if settings.model_differs(previous) and self._factory_for is not None and not self.controller.is_busy:
            self.model_label.setText("model: loading…")
            self.controller.load_model(self._factory_for(settings))

    def open_data_file(self, path: Path) -> None:
        self.data_files.open(path)

    def remove_data(self) -> None:
        self.data_files.remove()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if DataFiles.dropped(event.mimeData().urls()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt's name)
        path = DataFiles.dropped(event.mimeData().urls())
        if path is not None:
            event.acceptProposedAction()
            self.data_files.open(path)

    def current_work(self) -> dict[str, str]:
        """What a crash must not lose: the question, the program as edited and what it gave."""
        return {
            "data_file": str(self.data_files.path or ""),
            "question": self.question.toPlainText(),
            "table": self.table.toPlainText(),
            "program": self.editor.toPlainText(),
            "method": str(self.method.currentData() or ""),
            "answer": self.answer.text(),
            "output": self.output.toPlainText(),
        }

    # -- what the panes show ----------------------------------------------------------------

    def show_solution(self, solution: Solution | None) -> None:
        """The one way a result reaches the panes: a model solve, a hand run or a reopened one.
        Every part comes from `solution`, so nothing of an earlier result stays on screen."""
        self.work.solution = solution
        if solution is None:
            return
        trying = self.question_pane.try_yourself.isChecked() and solution.answered and bool(solution.calls)
        self.output_pane.show_solution(solution, self.work.trace, trying=trying)
        self.history_panel.hide_answers_for(solution.question if trying else None)
        if not solution.answered:  # an error: what it printed and why are what matter
            self.output_pane.show_failure()
        self.editor.mark_error_line(solution.error_line or 0)
        self.editor.mark_emulated_lines(frozenset(step.line for step in solution.code_steps if step.emulated))

    def _on_solved(self, solution: Solution) -> None:
        self.work.solved(solution)
        self.stepper.load([], "")
        if solution.program is not None:
            self.editor.setPlainText(solution.program)
        elif solution.samples > 1:  # chain of thought won the vote: the last program shown lost it
            self.editor.clear()
        self.show_solution(solution)
        self.output_pane.show_samples(solution)
        if solution.program is None and solution.finish_reply:  # chain of thought: its reasoning is the working
            self.output_pane.show_output(solution.finish_reply)
        if solution.status is SolveStatus.NO_PROGRAM:  # prose, not a program: it belongs in Output
            reply = solution.calls[-1].reply if solution.calls else ""
            self.editor.clear()
            self.output_pane.show_output(reply)
            self._show_status(NO_PROGRAM_TEXT)
            return
        self._show_status(status_detail(solution))
        self.repair_button.setEnabled(bool(solution.program) and not solution.answered)
        if solution.answered and solution.program and wants_graph(solution.question, solution.program):
            self.controller.graph(solution.program, self.settings)
        self.speed_label.setText(speed_text(solution, self.settings.n_ctx))
        self._layout_store.setValue("solve/method", self.method.currentData())

    def _on_program(self, program: str) -> None:
        self.editor.setPlainText(program)

    def _on_sample_chosen(self, label: str, program: str) -> None:
        self.editor.setPlainText(program)
        self._show_status(f"{label} is in the editor: Run (Ctrl+R) or Step (Ctrl+T) it.")

    def _on_run_shown(self, run: RunView) -> None:
        self.work.ran(run)
        self.output_pane.show_output(run.text)
        self.editor.mark_error_line(run.error_line or 0)
        self.isolation_label.setText(f"sandbox: {run.isolation} · {self.controller.sandbox_name}")
        self.output_pane.show_variables(run.values)
        if run.trace is not None:
            self.output_pane.show_trace(run.trace, run.stdout, self.editor.toPlainText())
        self.repair_button.setEnabled(not run.ok)
        self._show_status(run.summary)

    def _connect_current_work(self) -> None:
        """What keeps the panes about the current question: a new one clears the old answer; the
        answer being tried stays hidden in the history until it is revealed."""
        self.question.textChanged.connect(self._on_question_text_changed)
        self.output_pane.working.finished_trying.connect(lambda: self.history_panel.hide_answers_for(None))

    def _on_question_text_changed(self) -> None:
        """A different question: the old answer, its vote and an explanation go (the program
        stays, to be run or edited for the new one)."""
        shown = self.work.solution
        if self.controller.is_busy or shown is None or self.full_question().strip() == shown.question.strip():
            return
        self.work.solution = None
        self.output_pane.forget_answer()
        self.program_pane.forget_explanation()

    def _on_history_reopen(self, solution: Solution) -> None:
        if self.controller.is_busy:
            return
        self.program_pane.forget_explanation()
        self.repair_view.dismiss()
        self.output_pane.clear()
        self.work.reopened(solution)
        self.question.setPlainText(solution.question)
        self.table.clear()
        self.question_pane.pick_method(solution.method)
        self.editor.setPlainText(solution.program or "")
        error = error_text(solution.error, solution.program or "", solution.error_line) if solution.error else ""
        self.output_pane.show_output(solution.output + (f"\n{error}" if error else ""))
        self.show_solution(solution)
        self.output_pane.show_samples(solution)
        self._show_status(f"Reopened a past solve: {solution.message}")

    def _on_work_restored(self, work: dict[str, str]) -> None:
        if work.get("data_file") and Path(work["data_file"]).is_file():
            self.data_files.open(Path(work["data_file"]))
        self.question.setPlainText(work.get("question", ""))
        self.table.setPlainText(work.get("table", ""))
        self.editor.setPlainText(work.get("program", ""))
        if work.get("method"):
            self.question_pane.pick_method(work["method"])
        self.output_pane.show_answer(work.get("answer") or None)
        self.output_pane.show_output(work.get("output", ""))
        self._ready_text = "Ready. Restored the question and program you had before PAL Studio stopped."
        self._show_status(self._ready_text)

    def _on_table_export_requested(self) -> None:
        table = table_of(self.work.solution.variables) if self.work.solution else None
        path = csv_path(self) if table is not None else None
        if table is not None and path is not None:
            path.write_text(table.to_csv(), encoding="utf-8", newline="")  # the CSV's own line ends
            self._show_status(f"Exported the table to {path}")

    def _on_repaired(self, program: object) -> None:
        if not isinstance(program, str) or self._before_repair is None:
            self._show_status("The model proposed no corrected program.")
            return
        self.repair_view.propose(self._before_repair, program)
        self.editor.setPlainText(program)
        self._show_status("Repair proposed: accept to run it, or revert.")

    def _on_alternative_clicked(self) -> None:
        """The user chose PAL's reading of the output: it becomes the answer, labelled as such."""
        solution = self.work.solution
        if solution is None or not solution.alternative:
            return
        chosen = f"{solution.method}, printed output chosen"
        self.work.solution = replace(solution, answer=solution.alternative, status=SolveStatus.ANSWERED, method=chosen)
        self.output_pane.show_answer(solution.alternative)
        self.output_pane.show_alternative(None)
        self._show_status("The answer is the program's printed output, as PAL reads it (the program did not set ans).")

    def _on_export_clicked(self) -> None:
        if self.work.solution is None:
            self._show_status("Solve a question first; then it can be exported.")
            return
        path = export_path(self)
        if path is not None:
            self.export_to(path)
            self._show_status(f"Exported to {path}")

    def _on_model_ready(self, name: str) -> None:
        text = f"model: {name}"  # a long file name is cut in the middle with "…", whole in the tooltip
        metrics = self.model_label.fontMetrics()
        self.model_label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, _STATUS_LABEL_WIDTH))
        self.model_label.setToolTip(tip(text))
        self._show_status(self._ready_text)

    def _on_model_failed(self, message: str) -> None:
        self.model_label.setText("model: not loaded")
        self._show_status(f"The model could not be loaded: {message}")

    def _on_busy(self, busy: bool) -> None:
        self.question_pane.set_busy(busy)
        self.run_button.setEnabled(not busy)
        self.ticker.set_busy(busy)

    def _on_isolation(self, level: str, problem: str | None) -> None:
        self.isolation_label.setText(f"sandbox: {level} · {self.controller.sandbox_name}")
        self.isolation_label.setToolTip(tip("\n".join(self.controller.sandbox_layers)))
        if problem:
            self._show_status(f"Programs cannot be run here: {problem}")

    def _may_run_programs(self) -> bool:
        """With no isolation at all, ask once before running anything the model wrote."""
        if not self.controller.needs_consent:
            return True
        if not consent_to_unisolated(self):
            return False
        self.controller.allow_unisolated()
        return True

    def _open_welcome(self) -> None:
        """The first-run guide, beside the window (never modal); its sample is solved once the model is there."""
        self.welcome = open_welcome(self.paths.first_run_marker, self.controller, self)
        self.welcome.sample_requested.connect(self._on_sample_requested)

    def _on_sample_requested(self, question: str) -> None:
        self.question.setPlainText(question)
        when_ready(self.controller, self.solve)

    def _copy(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self._show_status(f"Copied {what}." if text.strip() else f"There is no {what.removeprefix('the ')} to copy.")

    def cancel(self) -> None:
        """Esc: stop the solve, run or explanation in progress, and say so at once."""
        if self.controller.is_busy:
            self._show_status("Cancelling…")
            self.output_pane.lanes.cancel()
        self.controller.cancel()

    def _show_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.statusBar().showMessage(text)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            QTimer.singleShot(0, self.layout_keeper.shown)  # once the shown widgets have their sizes

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        busy = self.controller.is_busy
        if busy and not confirmed(
            self,
            "A solve is running",
            "The model is still working. Close PAL Studio and stop it? The question and the program so far "
            "are kept and offered back at the next start.",
        ):
            event.ignore()
            return
        if busy:
            self.work_keeper.keep_for_next_start()
        self.layout_keeper.save()
        self.controller.shutdown()
        self.output_pane.shutdown()
        self.work_keeper.close()
        super().closeEvent(event)
