"""The main window: question, program editor, execution output and repair controls in panes.

It builds and lays out the panes, holds the shortcuts and actions, and closes; it draws no
result. Every action goes to the `SolveController`; results go into `Work` (the controller's
and the window's one model) and progress onto `Events`, and each pane (`QuestionPane`,
`ProgramPane`, `OutputPane`, `HistoryPanel`, `StatusView`) draws what it shows from them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent, QGuiApplication, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QMainWindow, QSplitter

from app.paths import AppPaths
from app.reasoning.methods import DATA_METHODS, DEFAULT_METHOD, Method
from app.settings import Settings
from app.ui.controller import SolveController
from app.ui.data_files import DataFiles
from app.ui.dialogs import confirmed, consent_to_unisolated
from app.ui.exporting import Exporter
from app.ui.history_panel import HistoryPanel
from app.ui.keyboard import SHORTCUTS, KeyboardDialog
from app.ui.layouts import VerticalScroll, column
from app.ui.menus import Menus
from app.ui.output_pane import OutputPane
from app.ui.program_pane import ProgramPane
from app.ui.question_pane import QuestionPane
from app.ui.restore_bar import RestoreBar
from app.ui.settings_dialog import SettingsDialog
from app.ui.status_view import StatusView
from app.ui.welcome import WelcomeDialog, open_welcome, when_ready
from app.ui.window_layout import WindowLayout
from app.ui.work_keeper import WorkKeeper


class MainWindow(QMainWindow):
    def __init__(
        self,
        controller: SolveController,
        *,
        paths: AppPaths,
        show_welcome: bool = False,
        crash_report: Path | None = None,
    ) -> None:
        """Built by `app.ui.app.compose`. Every file the window writes is under `paths`;
        `crash_report` names the report a native crash of the last session left, if any."""
        super().__init__()
        self.setWindowTitle("PAL Studio")
        self.setAcceptDrops(True)  # a data file dropped anywhere on the window is opened
        self.paths, self.recovery_path = paths, paths.recovery
        self.controller, self.work = controller, controller.work
        controller.setParent(self)
        self._layout_store = QSettings(str(paths.window_state), QSettings.Format.IniFormat)
        self._build()
        self.work_keeper = WorkKeeper(paths.recovery, self.current_work, self.restore_bar, self)
        self.data_files = DataFiles(controller, self.question_pane, self)
        self.apply_settings, self.open_data_file, self.remove_data = (
            controller.apply_settings, self.data_files.open, self.data_files.remove
        )  # fmt: skip
        self.exporter = Exporter(self, self.work, self.output_pane, self.status.show)
        self.export_to = self.exporter.export_to
        self._connect()
        self.layout_keeper.restore()
        self.question_pane.pick_method(self._layout_store.value("solve/method", DEFAULT_METHOD))
        controller.warm_method = self.question_pane.method_name()  # its prompts are read ahead
        if not self.work_keeper.offer(crash_report) and crash_report:
            self.status.show(f"PAL Studio stopped unexpectedly last time; the report is in {crash_report}.")
        self.welcome: WelcomeDialog | None = None
        if show_welcome:
            self.welcome = open_welcome(paths.first_run_marker, controller, self)
            self.welcome.sample_requested.connect(self.question.setPlainText)
            self.welcome.sample_requested.connect(lambda _question: when_ready(controller, self.solve))

    @property
    def settings(self) -> Settings:
        return self.controller.settings

    def _build(self) -> None:
        work, events = self.work, self.controller.events
        q = self.question_pane = QuestionPane(work)
        p = self.program_pane = ProgramPane(work, events)
        o = self.output_pane = OutputPane(work, events)
        # The panes' widgets under the names the rest of the window (and its tests) use.
        self.question, self.table, self.method, self.auto_repair = q.question, q.table, q.method, q.auto_repair
        self.solve_button, self.cancel_button, self.settings_button = q.solve_button, q.cancel_button, q.settings_button
        self.editor, self.run_button, self.trace_button = p.editor, p.run_button, p.trace_button
        self.repair_button, self.repair_view = p.repair_button, p.repair_view
        self.diff, self.accept_button = p.repair_view.diff, p.repair_view.accept_button
        self.answer, self.math, self.status_label, self.output = o.answer, o.math, o.status_label, o.output
        self.stepper, self.variables, self.tabs = o.stepper, o.variables, o.tabs
        self.history_panel = HistoryPanel(self.controller.history, work)
        self.splitter = QSplitter()
        for pane in (self.history_panel, VerticalScroll(q), p, o):
            self.splitter.addWidget(pane)
        self.restore_bar = RestoreBar()
        self.setCentralWidget(column(self.restore_bar, self.splitter))
        self.status = StatusView(self.statusBar(), o.status_label, self.controller, q.full_question)
        self.model_label, self.speed_label = self.status.model_label, self.status.speed_label
        self.isolation_label = self.status.isolation_label
        self.layout_keeper = WindowLayout(self, self.splitter, self.history_panel, self._layout_store)
        self._shown_once = False
        self.layout_keeper.reset()  # last: it measures the finished window against the screen
        self.question.setFocus()  # typing at once goes into the question, not History's search box

    def _connect(self) -> None:
        c, keeper, o = self.controller, self.work_keeper, self.output_pane
        c.busy.connect(self._on_busy)
        c.history_changed.connect(self.history_panel.refresh)
        self.history_panel.reopen.connect(c.reopen)
        self.data_files.status.connect(self.status.show)
        for text in (self.question, self.table, self.editor, o.working.my_working):
            text.textChanged.connect(keeper.changed)
        for work_changed in (self.work.solution_changed, self.work.run_changed, self.data_files.changed):
            work_changed.connect(keeper.changed)
        keeper.restored.connect(self._on_work_restored)
        keeper.save_failed.connect(self.status.show)
        self.solve_button.clicked.connect(self.solve)
        self.cancel_button.clicked.connect(self.cancel)
        self.settings_button.clicked.connect(self.open_settings)
        self.run_button.clicked.connect(self.run_program)
        self.trace_button.clicked.connect(self.trace_program)
        self.repair_button.clicked.connect(self.repair)
        self.repair_view.accepted.connect(self.run_program)
        self.program_pane.explain_button.clicked.connect(self.explain_line)
        self.stepper.line_changed.connect(self.editor.mark_step_line)
        o.copy_answer_button.clicked.connect(lambda: self._copy(o.full_answer, "the answer"))
        o.copy_program_button.clicked.connect(lambda: self._copy(self.editor.toPlainText(), "the program"))
        o.alternative_button.clicked.connect(self.work.chose_alternative)
        o.sample_chosen.connect(self._on_sample_chosen)
        o.working.check_requested.connect(self.controller.check_working)
        o.working.another_requested.connect(self.controller.another_one)
        o.working.practice_chosen.connect(c.try_again)
        self._bind_keys()

    def _bind_keys(self) -> None:
        """The shortcuts of app.ui.keyboard (the one table the Help dialog and README list) and the
        Help menu (the focus ring is the application's: app.ui.app.compose)."""
        step = self.output_pane.step_key
        slots = {
            "solve": self.solve, "run_program": self.run_program, "trace_program": self.trace_program,
            "cancel": self.cancel, "explain_line": self.explain_line, "open_data": self.data_files.choose,
            "search_history": self.layout_keeper.search_history, "toggle_history": self.layout_keeper.toggle_history,
            "focus_question": self.question.setFocus, "focus_program": self.editor.setFocus,
            "focus_output": self.output.setFocus, "step_back": lambda: step("Alt+Left"),
            "step_forward": lambda: step("Alt+Right"), "step_first": lambda: step("Alt+Home"),
            "step_last": lambda: step("Alt+End"), "open_settings": self.open_settings,
            "show_keyboard": self.show_keyboard,
        }  # fmt: skip
        for keys, slot, _words in SHORTCUTS:
            QShortcut(QKeySequence(keys), self, slots[slot])
        QShortcut(QKeySequence("Ctrl+Enter"), self, self.solve)  # the keypad's Enter
        self.menus = Menus(self.menuBar(), self.layout_keeper, self.history_panel, self.show_keyboard)

    def show_keyboard(self) -> None:
        """F1: every shortcut, in a window of its own."""
        KeyboardDialog(self).exec()

    def reset_layout(self) -> None:
        """The default size, shrunk to the screen and centred on it."""
        self.layout_keeper.reset()

    # -- actions ----------------------------------------------------------------------------

    def full_question(self) -> str:
        return self.question_pane.full_question()

    def solve(self) -> None:
        if self.status.refuses() or not self._may_run_programs():
            return
        question, method, data = self.full_question(), self.question_pane.method_name(), self.data_files.data
        missing = self.question_pane.missing()
        if missing:
            self.status.show(missing)
        elif data is not None and Method.parse(method).base not in DATA_METHODS:
            self.status.show("Questions about a data file need a program: choose a PAL or PoT method.")
        else:
            # The next start picks it again — the one a data file replaced, if it did: the file may not be there.
            self._layout_store.setValue("solve/method", self.data_files.method_without(method))
            self.controller.solve(question, method, repair=self.auto_repair.isChecked(), data=data)

    def run_program(self, *, trace: bool = False) -> None:
        code = self.editor.toPlainText()
        if self.status.refuses() or not code.strip() or not self._may_run_programs():
            return
        self.program_pane.clear_marks()  # a plain run emulates nothing
        self.controller.run_program(code, trace=trace, question=self.full_question(), data=self.data_files.data)

    def trace_program(self) -> None:
        """Run the program recording every step, then show the stepper."""
        self.run_program(trace=True)

    def repair(self) -> None:
        if (run := self.work.last_run) is not None and not self.status.refuses():
            program = self.program_pane.start_repair()
            self.controller.repair(self.full_question(), program, run.error, self.data_files.data)

    def explain_line(self) -> None:
        """Ctrl+E: the model explains the line the cursor is on (streamed; Esc stops it)."""
        program, number = self.editor.toPlainText(), self.program_pane.current_line()
        lines = program.splitlines()
        if self.status.refuses() or not 0 < number <= len(lines) or not lines[number - 1].strip():
            return
        self.program_pane.start_explaining(number)
        self.controller.explain_line(self.full_question(), program, number)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, self.controller.speeds, self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.apply_settings(dialog.result_settings())

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if DataFiles.dropped(event.mimeData().urls()) is not None:
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt's name)
        path = DataFiles.dropped(event.mimeData().urls())
        if path is not None:
            event.acceptProposedAction()
            self.data_files.open(path)

    def current_work(self) -> dict[str, str]:
        """What a crash must not lose: the question, the program as edited, what it gave, the working."""
        return {
            "data_file": str(self.data_files.path or ""),
            "question": self.question.toPlainText(),
            "table": self.table.toPlainText(),
            "program": self.editor.toPlainText(),
            "method": str(self.method.currentData() or ""),
            "answer": self.answer.text(),
            "output": self.output.toPlainText(),
            "working": self.output_pane.working.my_working.toPlainText(),
        }

    def _on_work_restored(self, work: dict[str, str]) -> None:
        """The boxes as they were when PAL Studio stopped (the answer and output as text only)."""
        if work.get("data_file") and Path(work["data_file"]).is_file():
            self.data_files.open(Path(work["data_file"]))
        self.question.setPlainText(work.get("question", ""))
        self.table.setPlainText(work.get("table", ""))
        self.editor.setPlainText(work.get("program", ""))
        if work.get("method"):
            self.question_pane.pick_method(work["method"])
        self.output_pane.restore(work)
        self.status.ready_text = "Ready. Restored the question, program and working you had before PAL Studio stopped."
        self.status.show(self.status.ready_text)

    def _on_sample_chosen(self, label: str, program: str) -> None:
        self.editor.setPlainText(program)
        self.status.show(f"{label} is in the editor: Run (Ctrl+R) or Step (Ctrl+T) it.")

    def _on_busy(self, busy: bool) -> None:
        self.question_pane.set_busy(busy)
        self.run_button.setEnabled(not busy)

    def _may_run_programs(self) -> bool:
        """With no isolation at all, ask once before running anything the model wrote."""
        if not self.controller.needs_consent:
            return True
        if not consent_to_unisolated(self):
            return False
        self.controller.allow_unisolated()
        return True

    def _copy(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.status.show(f"Copied {what}." if text.strip() else f"There is no {what.removeprefix('the ')} to copy.")

    def cancel(self) -> None:
        """Esc: stop the solve, run or explanation in progress, and say so at once."""
        if self.controller.is_busy:
            self.status.show("Cancelling…")
            self.output_pane.lanes.cancel()
        self.controller.cancel()

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
