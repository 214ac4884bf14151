"""The main window: question, program editor, execution output and repair controls in panes.

Views only: every action goes to the `SolveController`, every result comes back as a signal.
Signals of child widgets are handled by `_on_<signal>` slots.
"""

from __future__ import annotations

import contextlib
import difflib
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

from app.export import notebook_text, to_markdown, to_python
from app.reasoning import Solution, SolveStatus
from app.reasoning.methods import DEFAULT_METHOD, PICKER
from app.store import settings as settings_store
from app.store.history import History, HistoryEntry
from app.store.settings import Settings
from app.ui import crash
from app.ui.code_editor import CodeEditor, monospace
from app.ui.controller import ModelFactory, SolveController
from app.ui.dialogs import confirmed
from app.ui.history_panel import HistoryPanel
from app.ui.output_pane import OutputPane
from app.ui.restore_bar import RestoreBar
from app.ui.settings_dialog import SettingsDialog
from app.ui.welcome import WelcomeDialog
from models.paths import data_dir
from sandbox import RunResult, Sandbox, Status
from sandbox.display import display_text

EXAMPLES = (
    "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?",
    "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?",
    "A train travels 180 km in 2.5 hours. What is its average speed in km/h?",
    "Solve for x: 3x + 7 = 25.",
)
_PROGRESS_DELAY_MS = 500  # short work shows nothing; longer work shows its phase
_AUTOSAVE_DELAY_MS = 800  # after the last change: typing saves once per pause, not per key
_STATUS_LABEL_WIDTH = 320
# The default window: room for the panes on a laptop, inside the screen (1366×768 is common).
_DEFAULT_SIZE = (1320, 740)
_SCREEN_MARGIN = 40


def linearise_table(text: str) -> str:
    """A pasted table (CSV, tab- or |-separated) as rows on lines with cells joined by ' | '."""
    rows = []
    for line in text.strip().splitlines():
        separator = "\t" if "\t" in line else ("|" if "|" in line else ",")
        cells = [cell.strip() for cell in line.strip().strip("|").split(separator)]
        rows.append(" | ".join(cells))
    return "\n".join(rows)


class MainWindow(QMainWindow):
    def __init__(
        self,
        model_factory: ModelFactory,
        *,
        sandbox: Sandbox | None = None,
        settings_path: Path | None = None,
        history_path: Path | None = None,
        user_settings_path: Path | None = None,
        factory_for: Callable[[Settings], ModelFactory] | None = None,
        show_welcome: bool = False,
        recovery_path: Path | None = None,
        crash_report: Path | None = None,
    ) -> None:
        """`recovery_path` is where the work is autosaved (the user's data folder by default);
        `crash_report` names the report a native crash of the last session left, if any."""
        super().__init__()
        self.recovery_path = recovery_path or crash.recovery_path()
        self._user_settings_path = user_settings_path
        self.settings = settings_store.load(user_settings_path)
        self._factory_for = factory_for
        self.setWindowTitle("PAL Studio")
        self._settings = QSettings(str(settings_path), QSettings.Format.IniFormat) if settings_path else QSettings()
        history = History(history_path or data_dir() / "history.sqlite")
        history.mark_interrupted()  # a solve still "running" in the file was cut off by a crash or kill
        self.controller = SolveController(sandbox or Sandbox(), history, self)
        self._last_result: RunResult | None = None
        self._solution: Solution | None = None  # what the window shows and exports: a solve, a run or a reopened one
        self._solve: Solution | None = None  # the last model solve, which a hand-edited program edits
        self._trace: list[dict[str, Any]] | None = None
        self._isolation = "unknown"
        self._ready_text = "Ready."
        self._before_repair: str | None = None
        self._pending_phase = ""
        self._phase_timer = QTimer(self, singleShot=True, interval=_PROGRESS_DELAY_MS)
        self._elapsed_timer = QTimer(self, interval=1000)  # long work says how long it has taken
        self._busy_since = 0.0
        self._autosave_timer = QTimer(self, singleShot=True, interval=_AUTOSAVE_DELAY_MS)
        self._recovered: dict[str, str] | None = None  # work offered back and not yet taken or discarded
        self._keep_work = False  # closed mid-solve: the autosave stays for the next start
        self._build()
        self._connect()
        self._restore()
        self._recover(crash_report)
        self.welcome: WelcomeDialog | None = None
        if show_welcome:
            self._open_welcome()
        self.controller.load_model(model_factory)

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
        self._hide_diff()

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
        self.diff = QPlainTextEdit(readOnly=True)
        self.diff.setFont(monospace())
        self.accept_button = QPushButton("Accept repair")
        self.revert_button = QPushButton("Revert")
        return _column(
            QLabel("<b>Program</b>"), self.editor, _row(self.run_button, self.trace_button, self.repair_button),
            self.diff, _row(self.accept_button, self.revert_button),
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
        c.ran.connect(self._on_ran)
        c.hand_run.connect(self._on_hand_run)
        c.repaired.connect(self._on_repaired)
        c.failed.connect(self._on_failed)
        c.history_changed.connect(self.history_panel.refresh)
        c.isolation.connect(self._on_isolation)
        self.history_panel.reopen.connect(self._on_history_reopen)
        self._phase_timer.timeout.connect(self._on_phase_timer)
        self._elapsed_timer.timeout.connect(self._on_phase_timer)
        self._autosave_timer.timeout.connect(self._on_autosave_timer)
        for text_widget in (self.question, self.table, self.editor):
            text_widget.textChanged.connect(self._autosave_timer.start)
        c.solved.connect(self._autosave_timer.start)
        c.ran.connect(self._autosave_timer.start)
        self.restore_bar.restore_clicked.connect(self._on_restore_clicked)
        self.restore_bar.discard_clicked.connect(self._on_discard_clicked)
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
        self.accept_button.clicked.connect(self._on_accept_clicked)
        self.revert_button.clicked.connect(self._on_revert_clicked)
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
        welcome = self.welcome = WelcomeDialog(self)
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

    def _recover(self, crash_report: Path | None) -> None:
        """Offer back what an unclean exit left; until the user answers, nothing overwrites it."""
        self._recovered = crash.recovered_work(self.recovery_path)
        if self._recovered:
            self.restore_bar.offer(self._recovered.get("question", ""), str(crash_report) if crash_report else None)
        elif crash_report:
            self._show_status(f"PAL Studio stopped unexpectedly last time; the report is in {crash_report}.")

    def _on_restore_clicked(self) -> None:
        work, self._recovered = self._recovered or {}, None
        self.restore_bar.hide()
        self.question.setPlainText(work.get("question", ""))
        self.table.setPlainText(work.get("table", ""))
        self.editor.setPlainText(work.get("program", ""))
        self.output_pane.show_answer(work.get("answer") or None)
        self.output_pane.show_output(work.get("output", ""))
        self._ready_text = "Ready. Restored the question and program you had before PAL Studio stopped."
        self._show_status(self._ready_text)

    def _on_discard_clicked(self) -> None:
        self._recovered = None
        self.restore_bar.hide()
        crash.discard_work(self.recovery_path)
        self._autosave_timer.start()

    def _on_autosave_timer(self) -> None:
        if self._recovered is not None:
            return  # the offer is open: saving now would overwrite the work it offers
        try:
            crash.save_work(self.current_work(), self.recovery_path)
        except OSError as exc:
            self.statusBar().showMessage(f"Your work could not be autosaved: {exc}", 10_000)

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
        question, table = self.question.toPlainText().strip(), self.table.toPlainText().strip()
        return f"{linearise_table(table)}\n{question}" if table else question

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
        self._hide_diff()
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
        if path.suffix == ".ipynb":
            text = notebook_text(solution)
        elif path.suffix == ".py":
            text = to_python(solution)
        else:
            text = to_markdown(solution, self._trace)
        path.write_text(text, encoding="utf-8")

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings(dialog.result_settings())

    def apply_settings(self, settings: Settings) -> None:
        """Keep `settings` (saved at once); load the model again if it is a different one."""
        previous, self.settings = self.settings, settings
        settings_store.save(settings, self._user_settings_path)
        if settings.model_differs(previous) and self._factory_for is not None and not self.controller.is_busy:
            self.model_label.setText("model: loading…")
            self.controller.load_model(self._factory_for(settings))

    def repair(self) -> None:
        result = self._last_result
        if self.controller.is_busy or result is None:
            return
        self._before_repair = self.editor.toPlainText()
        self.controller.repair(self.full_question(), self._before_repair, result.error or "")

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

    def _on_solved(self, solution: Solution) -> None:
        self._solution = self._solve = solution
        self._trace = None
        self.stepper.load([], "")
        self.output_pane.show_math(solution.ans.latex if solution.ans else None)
        self.output_pane.show_variables(solution.variables)
        if solution.program is not None:
            self.editor.setPlainText(solution.program)
        self.editor.mark_error_line(solution.error_line or 0)
        self.output_pane.show_answer(solution.answer)
        self.output_pane.show_alternative(solution.alternative)
        self.output_pane.show_how(solution)
        self.output_pane.show_steps(solution)
        self.editor.mark_emulated_lines(frozenset(step.line for step in solution.code_steps if step.emulated))
        if solution.program is None and solution.finish_reply:  # chain of thought: its reasoning is the working
            self.output_pane.show_output(solution.finish_reply)
        detail = f" — {display_text(solution.error)}" if solution.error and not solution.answered else ""
        self._show_status(f"{solution.message} ({solution.duration_s:.1f} s){detail}")
        self.repair_button.setEnabled(bool(solution.program) and not solution.answered)
        if solution.calls:
            last = solution.calls[-1]
            used = last.prompt_tokens + last.completion_tokens
            self.speed_label.setText(f"{last.tokens_per_s:.1f} tokens/s, context {used}/{self.settings.n_ctx}")
        self._settings.setValue("solve/method", self.method.currentData())

    def _on_ran(self, result: RunResult) -> None:
        self._last_result = result
        text = result.stdout + (f"\n{result.stderr}" if result.stderr else "")
        if result.error:
            text += ("\n" if text else "") + result.error
        self.output_pane.show_output(text)
        self.editor.mark_error_line(result.error_line or 0)
        self.isolation_label.setText(f"sandbox: {result.isolation.value}")
        self.output_pane.show_variables(result.values)
        if result.trace is not None:
            self._trace = result.trace
            self.output_pane.show_trace(result.trace, result.stdout)
        self.repair_button.setEnabled(result.status is not Status.OK)
        self._show_status(f"{result.status.value} ({result.duration_s * 1000:.0f} ms)")

    def _on_hand_run(self, solution: Solution) -> None:
        """A program run by hand is now the current solution: its answer (or none), never the last one's."""
        self._solution = solution
        self.output_pane.show_answer(solution.answer)
        self.output_pane.show_math(solution.ans.latex if solution.ans else None)
        self.output_pane.show_how(solution)

    def _on_repaired(self, program: object) -> None:
        if not isinstance(program, str) or self._before_repair is None:
            self._show_status("The model proposed no corrected program.")
            return
        lines = difflib.unified_diff(
            self._before_repair.splitlines(), program.splitlines(), "before", "repaired", lineterm=""
        )
        self.diff.setPlainText("\n".join(lines))
        self.editor.setPlainText(program)
        for widget in (self.diff, self.accept_button, self.revert_button):
            widget.setVisible(True)
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

    def _on_accept_clicked(self) -> None:
        self._hide_diff()
        self.run_program()

    def _on_revert_clicked(self) -> None:
        if self._before_repair is not None:
            self.editor.setPlainText(self._before_repair)
        self._hide_diff()

    def _on_failed(self, message: str) -> None:
        self._show_status(f"Something went wrong: {message}")

    def _on_history_reopen(self, entry: HistoryEntry) -> None:
        if self.controller.is_busy:
            return
        self._hide_diff()
        self.output_pane.clear()
        self._trace = None
        self.question.setPlainText(entry.question)
        self.table.clear()
        self.method.setCurrentIndex(max(self.method.findData(entry.method), 0))
        self.editor.setPlainText(entry.program or "")
        self.editor.mark_emulated_lines(frozenset())
        self.output_pane.show_output(entry.output + (f"\n{entry.error}" if entry.error else ""))
        self.output_pane.show_answer(entry.answer)
        self._solution = self._solve = Solution.from_json(entry.solution) if entry.solution else None
        if self._solution is not None:
            self.output_pane.show_variables(self._solution.variables)
            self.output_pane.show_math(self._solution.ans.latex if self._solution.ans else None)
            self.output_pane.show_how(self._solution)
        self.editor.mark_error_line((entry.solution or {}).get("error_line") or 0)
        self._show_status(f"Reopened a past solve: {entry.status}")

    def _on_isolation(self, level: str, problem: str | None) -> None:
        self._isolation = level
        self.isolation_label.setText(f"sandbox: {level}")
        if problem:
            self._show_status(f"Programs cannot be run here: {problem}")

    def _may_run_programs(self) -> bool:
        """With no isolation at all, ask once before running anything the model wrote."""
        sandbox = self.controller.sandbox
        if self._isolation != "none" or sandbox.allow_unisolated:
            return True
        answer = QMessageBox.warning(
            self,
            "No isolation",
            "This computer offers no way to isolate programs, so a program written by the model could read "
            "or change your files. Run programs anyway, for this session?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        sandbox.allow_unisolated = answer == QMessageBox.StandardButton.Yes
        return sandbox.allow_unisolated

    def _on_example_activated(self, index: int) -> None:
        if index > 0:
            self.question.setPlainText(self.examples.itemText(index))
            self.examples.setCurrentIndex(0)

    # -- helpers ----------------------------------------------------------------------------

    def _show_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.statusBar().showMessage(text)

    def _hide_diff(self) -> None:
        for widget in (self.diff, self.accept_button, self.revert_button):
            widget.setVisible(False)
        self._before_repair = None

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if self.controller.is_busy and not self._may_close_while_busy():
            event.ignore()
            return
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue(self._splitter_key(), self.splitter.saveState())
        self._settings.sync()
        self.controller.shutdown()
        self._autosave_timer.stop()
        if self._recovered is None and not self._keep_work:  # work on offer, or cut off mid-solve, stays
            crash.discard_work(self.recovery_path)
        super().closeEvent(event)

    def _may_close_while_busy(self) -> bool:
        if not confirmed(
            self,
            "A solve is running",
            "The model is still working. Close PAL Studio and stop it? The question and the program so far "
            "are kept and offered back at the next start.",
        ):
            return False
        self._recovered = None
        with contextlib.suppress(OSError):
            crash.save_work(self.current_work(), self.recovery_path)
        self._keep_work = True
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
