"""Step through a recorded trace: slider, first/back/forward/last, the variables of each step
(changed ones highlighted) and the output printed so far.

Predict the next value (a quiz): stepping forward, a quantity the line is about to change stays
hidden ("?") until the student types what it will be; the app reveals it and counts right guesses.

Signals: line_changed(int) — the program line of the current step (0 when there is none).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.evaluation.grader import grade
from app.reasoning.numbers import format_answer
from app.ui.layouts import VerticalScroll
from app.ui.plain import Label, tip
from sandbox import TraceStep
from sandbox.display import display_text

_CHANGED = QBrush(QColor("#fff2a8"))
_HIDDEN_KINDS = ("<module ", "<function ", "<class ", "<built-in ", "<bound method ")  # not quantities


class Stepper(QWidget):
    line_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._steps: tuple[TraceStep, ...] = ()
        self._output = ""
        self._lines: list[str] = []
        self._changed: list[str] = []
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.first_button, self.back_button = QPushButton("|◀"), QPushButton("◀")
        self.forward_button, self.last_button = QPushButton("▶"), QPushButton("▶|")
        self.position = Label("no trace")
        self.explanation = Label("")  # the step's line in words: its comment, else the code itself
        self.explanation.setWordWrap(True)
        self.show_all = QCheckBox("Show functions")
        self.show_all.setToolTip("Show modules and functions too, not only quantities")
        self.quiz = QCheckBox("Predict values")
        self.quiz.setToolTip("Stepping forward, guess what the line will make a quantity before it is shown")
        self.guess = QLineEdit(placeholderText="Your guess, then Enter")
        self.quiz_line = Label("")
        self.quiz_line.setWordWrap(True)
        self._asked: tuple[int, str] | None = None  # (step, name) whose value waits for a guess
        self._guesses = self._right = 0
        self._at = 0  # the step shown last
        self.variables = QTableWidget(0, 2)
        self.variables.setHorizontalHeaderLabels(["variable", "value"])
        self.variables.horizontalHeader().setStretchLastSection(True)
        self.output = QPlainTextEdit(readOnly=True)
        self.output.setMaximumHeight(80)
        self._lay_out()
        self.slider.valueChanged.connect(self._on_slider_value_changed)
        self.show_all.toggled.connect(lambda _on: self._show(self.slider.value()))
        self.quiz.toggled.connect(self._on_quiz_toggled)
        self.guess.returnPressed.connect(self._on_guess)
        self.first_button.clicked.connect(lambda: self.slider.setValue(0))
        self.back_button.clicked.connect(lambda: self.slider.setValue(self.slider.value() - 1))
        self.forward_button.clicked.connect(lambda: self.slider.setValue(self.slider.value() + 1))
        self.last_button.clicked.connect(lambda: self.slider.setValue(self.slider.maximum()))
        # Alt+←/→/Home/End are the window's (app.ui.main_window): they work from any tab.
        self.keys = {"Alt+Left": self.back_button, "Alt+Right": self.forward_button,
                     "Alt+Home": self.first_button, "Alt+End": self.last_button}  # fmt: skip
        self.load((), "")

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        for button in (self.first_button, self.back_button, self.forward_button, self.last_button):
            button.setMaximumWidth(48)  # symbols: no need for a full-width button each
            buttons.addWidget(button)
        buttons.addStretch(1)
        # The step's description changes at every step: it wraps instead of resizing the pane. On
        # a row of its own: beside the buttons, at 150 % on a 768 px screen, it took five lines.
        self.position.setWordWrap(True)
        self.position.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(0, 0, 0, 0)
        # It scrolls when the tab is short: its controls need more height than the other tabs, and
        # at 150 % in a 768 px screen the answer's notes above it made the window taller than the screen.
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(VerticalScroll(content))
        layout.addWidget(self.slider)
        layout.addLayout(buttons)
        layout.addWidget(self.position)
        layout.addWidget(self.explanation)
        layout.addWidget(self.variables)
        checks = QHBoxLayout()
        checks.addWidget(self.show_all)
        checks.addWidget(self.quiz)
        checks.addStretch(1)
        layout.addLayout(checks)
        self.quiz_box = QWidget()  # shown only while quizzing: no room taken otherwise
        quiz = QHBoxLayout(self.quiz_box)
        quiz.setContentsMargins(0, 0, 0, 0)
        quiz.addWidget(self.quiz_line, 1)
        quiz.addWidget(self.guess)
        self.quiz_line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        hint = self.guess.fontMetrics().horizontalAdvance(self.guess.placeholderText())  # whole at any scale
        self.guess.setFixedWidth(hint + 4 * self.guess.fontMetrics().averageCharWidth())
        layout.addWidget(self.quiz_box)
        layout.addWidget(Label("Printed so far:"))
        layout.addWidget(self.output)
        # The table and the output give up height first on a short screen (1366×768 at 150 %: the
        # tab must fit under the answer with the window inside the screen); they scroll.
        lines = self.output.fontMetrics().lineSpacing()
        self.variables.setMinimumHeight(3 * lines)
        self.output.setMinimumHeight(2 * lines + 8)
        # Two lines' height whatever the text: the table below must not jump as the words change.
        self.explanation.setMinimumHeight(2 * self.explanation.fontMetrics().lineSpacing())

    @property
    def step_index(self) -> int:
        return self.slider.value()

    def load(self, steps: tuple[TraceStep, ...], output: str, program: str = "") -> None:
        """Show a new trace (from `RunResult.trace`), the run's full output and the program it ran."""
        self._steps, self._output = steps, output
        self._lines = program.splitlines()
        self._at, self._asked = 0, None
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(len(self._steps) - 1, 0))
        self.slider.setValue(0)
        self.slider.blockSignals(False)
        enabled = bool(self._steps)
        for widget in (self.slider, self.first_button, self.back_button, self.forward_button, self.last_button):
            widget.setEnabled(enabled)
        self._show(0)
        self._ask()

    def _on_slider_value_changed(self, index: int) -> None:
        forward, self._at = index == self._at + 1, index
        self._asked = None
        if self.quiz.isChecked() and forward:
            before, after = self._steps[index - 1].vars, self._steps[index].vars
            names = [n for n, v in after.items() if before.get(n) != v and not v.startswith(_HIDDEN_KINDS)]
            if names:
                self._asked = (index, names[0])
        self._show(index)
        self._ask()

    def _on_quiz_toggled(self, on: bool) -> None:
        self._asked, self._guesses, self._right = None, 0, 0
        self.quiz_line.setText("Step forward (▶ or Alt+→): before each change you guess the new value." if on else "")
        self._show(self.slider.value())
        self._ask()

    def _ask(self) -> None:
        asked = self._asked
        self.quiz_box.setVisible(self.quiz.isChecked())
        self.guess.setVisible(asked is not None)
        if asked is not None:
            line = self._steps[asked[0] - 1].line
            self.quiz_line.setText(display_text(f"What will {asked[1]} be after line {line} runs?"))
            self.guess.clear()
            self.guess.setFocus()

    def _on_guess(self) -> None:
        asked, text = self._asked, self.guess.text().strip()
        if asked is None or not text:
            return
        value = self._steps[asked[0]].vars[asked[1]]
        right = _same_value(text, value)
        self._guesses, self._right = self._guesses + 1, self._right + right
        verdict = "Right" if right else f"Not quite: it is {format_answer(value)}"
        self._asked = None
        self._show(asked[0])
        self._ask()
        self.quiz_line.setText(display_text(f"{verdict}. {self._right} of {self._guesses} guesses right."))

    def _show(self, index: int) -> None:
        if not self._steps:
            self.position.setText("not stepped yet: Step (Ctrl+T) runs the program line by line")
            self.variables.setRowCount(0)
            self.explanation.setText("")
            self._changed = []
            self.output.clear()
            self.line_changed.emit(0)
            return
        step = self._steps[index]
        before = self._steps[index - 1].vars if index else {}
        variables = {
            name: value
            for name, value in step.vars.items()
            if self.show_all.isChecked() or not value.startswith(_HIDDEN_KINDS)
        }
        self._changed = [name for name, value in variables.items() if before.get(name) != value]
        hidden = self._asked[1] if self._asked is not None and self._asked[0] == index else None
        self.variables.setRowCount(len(variables))
        for row, (name, value) in enumerate(variables.items()):
            shown = format_answer(value)
            if name == hidden:
                shown = "?"  # waiting for the student's guess
            elif name in self._changed and name in before:  # what it was, then what it is now
                shown = f"{format_answer(before[name])} → {shown}"
            cells = (QTableWidgetItem(name), QTableWidgetItem(display_text(shown)))
            cells[1].setToolTip(
                "" if name == hidden else tip(display_text(value))
            )  # the raw value, float noise and all
            for column, cell in enumerate(cells):
                if name in self._changed:
                    cell.setBackground(_CHANGED)
                self.variables.setItem(row, column, cell)
        where = "" if step.function == "<module>" else f" in {step.function}()"
        more = " — the trace stops here (step limit)" if step.truncated else ""
        event = _EVENT_WORDS.get(step.event, "at")
        line = step.line
        if hidden is not None:  # the line the guess is about stays marked until the guess is in
            line, event = self._steps[index - 1].line, "guess what it makes, for"
        self.explanation.setText(self._explain(line))
        self.position.setText(f"step {index + 1} of {len(self._steps)}: {event} line {line}{where}{more}")
        self.output.setPlainText(display_text(self._output[: step.output]))
        self.line_changed.emit(line)

    def _explain(self, line: int) -> str:
        """The program's comment for `line` (above it or at its end), else the line's code."""
        if not 0 < line <= len(self._lines):
            return ""
        code = self._lines[line - 1]
        above = self._lines[line - 2].strip() if line > 1 else ""
        if "#" in code and not code.strip().startswith("#"):
            return code.split("#", 1)[1].strip()
        if above.startswith("#"):
            return above.lstrip("#").strip()
        return code.strip()

    def changed_names(self) -> list[str]:
        """Names whose value changed at the current step (highlighted in the table)."""
        return list(self._changed)


def _same_value(guess: str, value: str) -> bool:
    """A guess is right when it states the same number (18 = 18.0 = $18), or the same text."""
    return grade(guess, format_answer(value)).correct


_EVENT_WORDS = {"line": "about to run", "call": "entering", "return": "leaving", "exception": "error at"}
