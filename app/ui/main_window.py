"""The main window: question, program editor, execution output and repair controls in panes.

Views only: every action goes to the `SolveController`, every result comes back as a signal, and
whatever the window shows of a solve, a hand run or a reopened past solve goes through one
`show_solution`. Signals of child widgets are handled by `_on_<signal>` slots.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.export import export_text
from app.paths import AppPaths
from app.reasoning import Solution, SolveStatus
from app.reasoning.methods import DEFAULT_METHOD, PICKER
from app.reasoning.runs import RunView, status_detail
from app.reasoning.tables import with_table
from app.store.settings import Settings
from app.ui.code_editor import CodeEditor
from app.ui.controller import ModelFactory, SolveController
from app.ui.dialogs import confirmed
from app.ui.history_panel import HistoryPanel
from app.ui.output_pane import OutputPane
from app.ui.repair_view import RepairView
from app.ui.restore_bar import RestoreBar
from app.ui.settings_dialog import SettingsDialog
from app.ui.welcome import WelcomeDialog
from app.ui.work_keeper import WorkKeeper

EXAMPLES = (
    "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?",
    "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?",
    "A train travels 180 km in 2.5 hours. What is its average speed in km/h?",
    "Solve for x: 3x + 7 = 25.",
)
_PROGRESS_DELAY_MS = 500  # short work shows nothing; longer work shows its phase
_STATUS_LABEL_WIDTH = 320
# The default window: room for the panes on a laptop, inside the screen (1366×768 is common).
_DEFAULT_SIZE = (1320, 740)
_SCREEN_MARGIN = 40


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
        self.paths = paths
        self.recovery_path = paths.recovery
        self.settings = settings
        self._factory_for = factory_for
        self.setWindowTitle("PAL Studio")
        self._settings = QSettings(str(paths.window_state), QSettings.Format.IniFormat)
        self.controller = controller
        controller.setParent(self)
        self._last_run: RunView | None = None
        self._before_repair: str | None = None  # the program a requested repair would replace
        self._solution: Solution | None = None  # what the window shows and exports: a solve, a run or a reopened one
        self._solve: Solution | None = None  # the last model solve, which a hand-edited program edits
        self._trace: list[dict[str, Any]] | None = None
        self._ready_text = "Ready."
        self._pending_phase = ""
        self._phase_timer = QTimer(self, singleShot=True, interval=_PROGRESS_DELAY_MS)
        self._elapsed_timer = QTimer(self, interval=1000)  # long work says how long it has taken
        self._busy_since = 0.0
        self._build()
        self.work_keeper = WorkKeeper(paths.recovery, self.current_work, self.restore_bar, self)
        self._connect()
        self._restore()
        if not self.work_keeper.offer(crash_report) and crash_report:
            self._show_status(f"PAL Studio stopped unexpectedly last time; the report is in {crash_report}.")
        self.welcome: WelcomeDialog | None = None
        if show_welcome:
            self._open_welcome()

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        question_pane = self._build_question_pane()
        program_pane = self._build_program_pane()
        output_pane = self._build_output_pane()
        self.history_panel = HistoryPanel(self.controller.history)
        self.splitter = QSplitter()
        for pane in (self.history_panel, question_pane, program_pane, output_pane):
            self.splitter.addWidget(pane)
        self.restore_bar = RestoreBar()
        self.setCentralWidget(_column(self.restore_bar, self.splitter))
        self.model_label = QLabel("model: loading…")
        self.speed_label = QLabel("")
        self.isolation_label = QLabel("")
        for label in (self.model_label, self.speed_label, self.isolation_label):
            label.setMaximumWidth(_STATUS_LABEL_WIDTH)  # a long model name is cut, not a wider window
            self.statusBar().addPermanentWidget(label)
        self.reset_layout()  # last: it measures the finished window against the screen

    def _build_question_pane(self) -> QWidget:
        self.question = QPlainTextEdit(placeholderText="Type a question that needs calculation…")
        self.table = QPlainTextEdit(placeholderText="Optional table: paste CSV or tab-separated rows")
        self.table.setMaximumHeight(90)
        for box in (self.question, self.table):  # Tab moves on: keyboard users are not trapped in a text box
            box.setTabChangesFocus(True)
        self.examples = QComboBox()
        self.examples.addItem("Examples…")
        self.examples.addItems(EXAMPLES)
        self.method = QComboBox()
        for key, title in PICKER:
            self.method.addItem(title, key)
        for combo in (self.examples, self.method):  # their longest item must not set the pane's width
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.auto_repair = QCheckBox("Auto-repair once on error")
        self.settings_button = QPushButton("Model and settings… (Ctrl+,)")
        self.solve_button = QPushButton("Solve (Ctrl+Enter)")
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.cancel_button.setEnabled(False)
        return _column(
            QLabel("<b>Question</b>"), self.question, self.table, self.examples, self.method, self.auto_repair,
            _row(self.solve_button, self.cancel_button), self.settings_button,
        )  # fmt: skip

    def _build_program_pane(self) -> QWidget:
        self.editor = CodeEditor()
        self.run_button = QPushButton("Run (Ctrl+R)")
        self.trace_button = QPushButton("Step (Ctrl+T)")
        self.repair_button = QPushButton("Repair")
        self.repair_button.setEnabled(False)
        self.repair_view = RepairView()
        self.diff, self.accept_button, self.revert_button = (
            self.repair_view.diff,
            self.repair_view.accept_button,
            self.repair_view.revert_button,
        )
        return _column(
            QLabel("<b>Program</b>"), self.editor, _row(self.run_button, self.trace_button, self.repair_button),
            self.repair_view,
        )  # fmt: skip

    def _build_output_pane(self) -> QWidget:
        pane = self.output_pane = OutputPane()
        # The pane's widgets under the names the rest of the window (and its tests) use.
        self.answer, self.math, self.status_label = pane.answer, pane.math, pane.status_label
        self.output, self.stepper, self.variables, self.tabs = pane.output, pane.stepper, pane.variables, pane.tabs
        self.copy_answer_button, self.copy_program_button = pane.copy_answer_button, pane.copy_program_button
        self.export_button = pane.export_button
        return pane

    def _connect(self) -> None:
        c = self.controller
        c.model_ready.connect(self._on_model_ready)
        c.model_failed.connect(self._on_model_failed)
        c.busy.connect(self._on_busy)
        c.phase.connect(self._on_phase)
        c.token.connect(self._on_token)
        c.program.connect(self._on_program)
        c.solved.connect(self._on_solved)
        c.run_shown.connect(self._on_run_shown)
        c.hand_run.connect(self._on_hand_run)
        c.repaired.connect(self._on_repaired)
        c.failed.connect(self._on_failed)
        c.history_changed.connect(self.history_panel.refresh)
        c.isolation.connect(self._on_isolation)
        self.history_panel.reopen.connect(self._on_history_reopen)
        self._phase_timer.timeout.connect(self._on_phase_timer)
        self._elapsed_timer.timeout.connect(self._on_phase_timer)
        keeper = self.work_keeper
        for changed in (self.question.textChanged, self.table.textChanged, self.editor.textChanged, c.solved, c.ran):
            changed.connect(keeper.changed)
        keeper.restored.connect(self._on_work_restored)
        keeper.save_failed.connect(lambda message: self.statusBar().showMessage(message, 10_000))
        self.solve_button.clicked.connect(self.solve)
        self.cancel_button.clicked.connect(self.controller.cancel)
        self.run_button.clicked.connect(self.run_program)
        self.settings_button.clicked.connect(self.open_settings)
        self.repair_button.clicked.connect(self.repair)
        self.trace_button.clicked.connect(self.trace_program)
        self.stepper.line_changed.connect(self.editor.mark_step_line)
        self.copy_answer_button.clicked.connect(self._on_copy_answer_clicked)
        self.copy_program_button.clicked.connect(self._on_copy_program_clicked)
        self.export_button.clicked.connect(self._on_export_clicked)
        self.output_pane.alternative_button.clicked.connect(self._on_alternative_clicked)
        self.repair_view.accepted.connect(self.run_program)
        self.repair_view.reverted.connect(self.editor.setPlainText)
        self.examples.activated.connect(self._on_example_activated)
        shortcuts = (("Ctrl+Return", self.solve), ("Ctrl+Enter", self.solve), ("Ctrl+R", self.run_program),
                     ("Ctrl+T", self.trace_program), ("Escape", self.controller.cancel),
                     ("Ctrl+,", self.open_settings), ("Ctrl+F", self.search_history),
                     ("Ctrl+H", self.toggle_history), ("Alt+1", self.question.setFocus),
                     ("Alt+2", self.editor.setFocus), ("Alt+3", self.output.setFocus))  # fmt: skip
        for keys, slot in shortcuts:
            QShortcut(QKeySequence(keys), self, slot)

    def search_history(self) -> None:
        """Ctrl+F: the history's search box (the history is shown first if it was hidden)."""
        self.history_panel.setVisible(True)
        self.history_panel.search.setFocus()
        self.history_panel.search.selectAll()

    def toggle_history(self) -> None:
        """Ctrl+H: hide the history for more room, or show it again."""
        self.history_panel.setVisible(not self.history_panel.isVisible())

    def reset_layout(self) -> None:
        """The default size, shrunk to the screen and centred on it; the program and answer get the room."""
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        if self.minimumSizeHint().width() > screen.width():  # e.g. 1366 px at 150 %: 910 px to fill
            self.history_panel.setVisible(False)  # Ctrl+H or Ctrl+F bring it back
            layout = self.layout()
            if layout is not None:
                layout.activate()  # the smaller minimum applies to the resize below
        width = min(_DEFAULT_SIZE[0], screen.width() - _SCREEN_MARGIN)
        height = min(_DEFAULT_SIZE[1], screen.height() - _SCREEN_MARGIN)
        self.resize(width, height)
        self.move(screen.x() + (screen.width() - width) // 2, screen.y() + (screen.height() - height) // 2)
        self.splitter.setSizes([round(width * share) for share in (0.14, 0.24, 0.31, 0.31)])

    def _fit_on_screen(self) -> None:
        """A saved geometry from a bigger screen (or a scaling change) must not leave the window off it."""
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        if self.width() > screen.width() or self.height() > screen.height() or not screen.intersects(self.geometry()):
            self.reset_layout()

    def _splitter_key(self) -> str:
        return f"window/splitter-{self.splitter.count()}"  # a layout with other panes starts afresh

    def _open_welcome(self) -> None:
        """The first-run guide, beside the window (never modal)."""
        welcome = self.welcome = WelcomeDialog(self.paths.first_run_marker, self)
        c = self.controller
        c.load_progress.connect(welcome.on_load_progress)
        c.model_ready.connect(welcome.on_model_ready)
        c.model_failed.connect(welcome.on_model_failed)
        c.isolation.connect(welcome.on_isolation)
        welcome.sample_requested.connect(self._on_sample_requested)
        welcome.show()

    def _on_sample_requested(self, question: str) -> None:
        self.question.setPlainText(question)
        if self.controller.model is not None:
            self.solve()
        else:  # solve as soon as the model is there
            self.controller.model_ready.connect(self._solve_once_ready)

    def _solve_once_ready(self, _name: str) -> None:
        self.controller.model_ready.disconnect(self._solve_once_ready)
        self.solve()

    def current_work(self) -> dict[str, str]:
        """What a crash must not lose: the question, the program as edited and what it gave."""
        return {
            "question": self.question.toPlainText(),
            "table": self.table.toPlainText(),
            "program": self.editor.toPlainText(),
            "answer": self.answer.text(),
            "output": self.output.toPlainText(),
        }

    def _on_work_restored(self, work: dict[str, str]) -> None:
        self.question.setPlainText(work.get("question", ""))
        self.table.setPlainText(work.get("table", ""))
        self.editor.setPlainText(work.get("program", ""))
        self.output_pane.show_answer(work.get("answer") or None)
        self.output_pane.show_output(work.get("output", ""))
        self._ready_text = "Ready. Restored the question and program you had before PAL Studio stopped."
        self._show_status(self._ready_text)

    def _restore(self) -> None:
        geometry, splitter = self._settings.value("window/geometry"), self._settings.value(self._splitter_key())
        if geometry is not None:
            self.restoreGeometry(geometry)
            self._fit_on_screen()
        if splitter is not None:
            self.splitter.restoreState(splitter)
        index = self.method.findData(self._settings.value("solve/method", DEFAULT_METHOD))
        self.method.setCurrentIndex(max(index, 0))

    # -- actions ----------------------------------------------------------------------------

    def full_question(self) -> str:
        return with_table(self.question.toPlainText(), self.table.toPlainText())

    def solve(self) -> None:
        if self.controller.is_busy or not self._may_run_programs():
            return
        question = self.full_question()
        if not question:
            self._show_status("Type a question first.")
            return
        self.editor.clear()
        self.editor.mark_error_line(0)
        self.editor.mark_emulated_lines(frozenset())
        self.output_pane.clear()
        self.repair_view.dismiss()
        method = str(self.method.currentData())
        self.controller.solve(question, method, repair=self.auto_repair.isChecked(), settings=self.settings)

    def run_program(self, *, trace: bool = False) -> None:
        code = self.editor.toPlainText()
        if self.controller.is_busy or not code.strip() or not self._may_run_programs():
            return
        self.editor.mark_error_line(0)
        self.editor.mark_emulated_lines(frozenset())  # a plain run emulates nothing
        self.controller.run_program(
            code, settings=self.settings, trace=trace, question=self.full_question(), edits=self._solve
        )

    def trace_program(self) -> None:
        """Run the program recording every step, then show the stepper."""
        self.run_program(trace=True)

    def export_to(self, path: Path) -> None:
        """Write the current solve as Markdown, Python or a notebook, chosen by the file's suffix."""
        solution = self._solution
        if solution is None:
            raise ValueError("nothing to export yet")
        path.write_text(export_text(solution, path.suffix, self._trace), encoding="utf-8")

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings(dialog.result_settings())

    def apply_settings(self, settings: Settings) -> None:
        """Keep `settings` (saved at once); load the model again if it is a different one."""
        previous, self.settings = self.settings, settings
        self.controller.save_settings(settings)
        if settings.model_differs(previous) and self._factory_for is not None and not self.controller.is_busy:
            self.model_label.setText("model: loading…")
            self.controller.load_model(self._factory_for(settings))

    def repair(self) -> None:
        run = self._last_run
        if self.controller.is_busy or run is None:
            return
        self._before_repair = self.editor.toPlainText()
        self.controller.repair(self.full_question(), self._before_repair, run.error or "")

    # -- slots ------------------------------------------------------------------------------

    def _on_model_ready(self, name: str) -> None:
        self.model_label.setText(f"model: {name}")
        self._show_status(self._ready_text)

    def _on_model_failed(self, message: str) -> None:
        self.model_label.setText("model: not loaded")
        self._show_status(f"The model could not be loaded: {message}")

    def _on_busy(self, busy: bool) -> None:
        self.solve_button.setEnabled(not busy)
        self.run_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)
        if busy:
            self._busy_since = time.monotonic()
        else:
            self._phase_timer.stop()
            self._elapsed_timer.stop()

    def _on_phase(self, text: str) -> None:
        self._pending_phase = text
        if not self._phase_timer.isActive() and not self._elapsed_timer.isActive():
            self._phase_timer.start()

    def _on_phase_timer(self) -> None:
        """After the first half second of work: its phase and the seconds so far, every second."""
        if not self.controller.is_busy:
            self._elapsed_timer.stop()
            return
        self._show_status(f"{self._pending_phase} {time.monotonic() - self._busy_since:.0f} s")
        if not self._elapsed_timer.isActive():
            self._elapsed_timer.start()

    def _on_token(self, text: str) -> None:
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(text)

    def _on_program(self, program: str) -> None:
        self.editor.setPlainText(program)

    def show_solution(self, solution: Solution | None) -> None:
        """The one way a result reaches the panes: a model solve, a hand run or a reopened one.
        Every part comes from `solution`, so nothing of an earlier result stays on screen."""
        self._solution = solution
        if solution is None:
            return
        self.output_pane.show_answer(solution.answer)
        self.output_pane.show_alternative(solution.alternative)
        self.output_pane.show_math(solution.ans.latex if solution.ans else None)
        self.output_pane.show_variables(solution.variables)
        self.output_pane.show_how(solution)
        self.output_pane.show_steps(solution)
        self.editor.mark_error_line(solution.error_line or 0)
        self.editor.mark_emulated_lines(frozenset(step.line for step in solution.code_steps if step.emulated))

    def _on_solved(self, solution: Solution) -> None:
        self._solve = solution
        self._trace = None
        self.stepper.load([], "")
        if solution.program is not None:
            self.editor.setPlainText(solution.program)
        self.show_solution(solution)
        if solution.program is None and solution.finish_reply:  # chain of thought: its reasoning is the working
            self.output_pane.show_output(solution.finish_reply)
        self._show_status(status_detail(solution))
        self.repair_button.setEnabled(bool(solution.program) and not solution.answered)
        if solution.calls:
            last = solution.calls[-1]
            used = last.prompt_tokens + last.completion_tokens
            self.speed_label.setText(f"{last.tokens_per_s:.1f} tokens/s, context {used}/{self.settings.n_ctx}")
        self._settings.setValue("solve/method", self.method.currentData())

    def _on_run_shown(self, run: RunView) -> None:
        self._last_run = run
        self.output_pane.show_output(run.text)
        self.editor.mark_error_line(run.error_line or 0)
        self.isolation_label.setText(f"sandbox: {run.isolation}")
        self.output_pane.show_variables(run.values)
        if run.trace is not None:
            self._trace = run.trace
            self.output_pane.show_trace(run.trace, run.stdout)
        self.repair_button.setEnabled(not run.ok)
        self._show_status(run.summary)

    def _on_hand_run(self, solution: Solution) -> None:
        """A program run by hand is now the current solution: its answer (or none), never the last one's."""
        self.show_solution(solution)

    def _on_repaired(self, program: object) -> None:
        if not isinstance(program, str) or self._before_repair is None:
            self._show_status("The model proposed no corrected program.")
            return
        self.repair_view.propose(self._before_repair, program)
        self.editor.setPlainText(program)
        self._show_status("Repair proposed: accept to run it, or revert.")

    def _on_alternative_clicked(self) -> None:
        """The user chose PAL's reading of the output: it becomes the answer, labelled as such."""
        solution = self._solution
        if solution is None or not solution.alternative:
            return
        self._solution = replace(
            solution,
            answer=solution.alternative,
            status=SolveStatus.ANSWERED,
            method=f"{solution.method}, printed output chosen",
        )
        self.output_pane.show_answer(solution.alternative)
        self.output_pane.show_alternative(None)
        self._show_status("The answer is the program's printed output, as PAL reads it (the program did not set ans).")

    def _on_copy_answer_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.output_pane.full_answer)

    def _on_copy_program_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.editor.toPlainText())

    def _on_export_clicked(self) -> None:
        if self._solution is None:
            self._show_status("Solve a question first; then it can be exported.")
            return
        name, _filter = QFileDialog.getSaveFileName(
            self, "Export the worked solution", str(Path.home() / "solution.md"),
            "Markdown (*.md);;Python (*.py);;Jupyter notebook (*.ipynb)",
        )  # fmt: skip
        if name:
            self.export_to(Path(name))
            self._show_status(f"Exported to {name}")

    def _on_failed(self, message: str) -> None:
        self._show_status(f"Something went wrong: {message}")

    def _on_history_reopen(self, solution: Solution) -> None:
        if self.controller.is_busy:
            return
        self.repair_view.dismiss()
        self.output_pane.clear()
        self._trace = None
        self.question.setPlainText(solution.question)
        self.table.clear()
        self.method.setCurrentIndex(max(self.method.findData(solution.method), 0))
        self.editor.setPlainText(solution.program or "")
        self.output_pane.show_output(solution.output + (f"\n{solution.error}" if solution.error else ""))
        self._solve = solution if solution.calls else None
        self.show_solution(solution)
        self._show_status(f"Reopened a past solve: {solution.message}")

    def _on_isolation(self, level: str, problem: str | None) -> None:
        self.isolation_label.setText(f"sandbox: {level}")
        if problem:
            self._show_status(f"Programs cannot be run here: {problem}")

    def _may_run_programs(self) -> bool:
        """With no isolation at all, ask once before running anything the model wrote."""
        if not self.controller.needs_consent:
            return True
        answer = QMessageBox.warning(
            self,
            "No isolation",
            "This computer offers no way to isolate programs, so a program written by the model could read "
            "or change your files. Run programs anyway, for this session?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return False
        self.controller.allow_unisolated()
        return True

    def _on_example_activated(self, index: int) -> None:
        if index > 0:
            self.question.setPlainText(self.examples.itemText(index))
            self.examples.setCurrentIndex(0)

    # -- helpers ----------------------------------------------------------------------------

    def _show_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.statusBar().showMessage(text)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if self.controller.is_busy and not self._may_close_while_busy():
            event.ignore()
            return
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue(self._splitter_key(), self.splitter.saveState())
        self._settings.sync()
        self.controller.shutdown()
        self.work_keeper.close()
        super().closeEvent(event)

    def _may_close_while_busy(self) -> bool:
        if not confirmed(
            self,
            "A solve is running",
            "The model is still working. Close PAL Studio and stop it? The question and the program so far "
            "are kept and offered back at the next start.",
        ):
            return False
        self.work_keeper.keep_for_next_start()
        return True


def _column(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    for widget in widgets:
        layout.addWidget(widget)
    return box


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    return box
