"""The worked solution: each step's prose, then its mathematics typeset (matplotlib's mathtext,
offline); plain text where a formula cannot be typeset. A view only.

Try it yourself: the steps stay hidden until the student reveals them one at a time or enters an
answer; the answer is checked with the evaluator's grader (18 = 18.0 = $18, 3/4 = 0.75), and a
wrong one is met with the first step to compare, not the answer.

Check my working: the student opens a box (it keeps the steps' room until then) and types their
own working, one step per line (Enter: a new line, Ctrl+Enter: check); each line comes back
marked right or wrong, the first wrong one with what is wrong and the solution's step beside it
(`app.reasoning.check_working`).

Another one like this: a new question of the same kind with other numbers, its answer checked by
two methods and hidden (`app.reasoning.practice`); every try ends right, wrong or revealed, and the
tally of them is kept in the history; a click on the tally lists them (`app.ui.practice_list`).

Signals: finished_trying() — the student asked to see everything; check_requested(str) — the
student's working, to be checked; attempted(str) — a try ended "right", "wrong" or "revealed";
another_requested() — the student asked for a new question like this one; practice_chosen(int) —
the solve of a try in the practice list, to open again.
"""

from __future__ import annotations

import re
import time

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.evaluation.grader import grade
from app.reasoning.check_working import CheckedWorking
from app.reasoning.working import WorkingStep
from app.store.history import PracticeAttempt
from app.ui.background import Background
from app.ui.controller import NOTHING_SOLVED, NOTHING_TO_VARY
from app.ui.math_view import Formulas
from app.ui.plain import Label
from app.ui.practice_list import PracticeList, tally_words
from sandbox.display import display_text

_PUT_ASIDE = 100  # other questions' workings kept for this session
# An edited question is the same problem where this share of its words (as a set) is unchanged:
# one word of a 20-word question changed keeps 0.9; two GSM8K questions share about a quarter.
_SAME_WORDS = 0.75


def _same_problem(question: str, before: str) -> bool:
    """Most of the words the same (word sets: linear in the questions' length, each read up to 20,000 characters)."""
    new, old = ({w.lower() for w in re.findall(r"\w+", text[:20_000])} for text in (question, before))
    return bool(new and old) and len(new & old) >= _SAME_WORDS * len(new | old)


class WorkingView(QWidget):
    finished_trying = Signal()
    check_requested = Signal(str)
    attempted = Signal(str)
    another_requested = Signal()
    practice_chosen = Signal(int)

    def __init__(self, drawing: Background, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.formulas = Formulas(drawing, self)  # typeset on the drawing thread, text until then
        self.steps: list[WorkingStep] = []
        self._answer: str | None = None  # the answer to check against while trying
        self.shown = 0  # how many steps are visible while trying
        self._since = ""  # when the question to try was put before the student (solved, or reopened from practice)
        self._settled = False  # the try ended (right, or revealed): later checks are not attempts
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.try_box = self._try_box()
        self.verdict = Label("")
        self.verdict.setWordWrap(True)
        self.my_working = QPlainTextEdit()
        self.my_working.setPlaceholderText("Your working, one step per line (3 boxes × 6 = 18) — Ctrl+Enter checks it")
        self.my_working.setTabChangesFocus(True)
        self.my_working.setMaximumHeight(90)
        # Hidden until asked for: its rows were the steps' (two steps showed at 150 % on a 768 px screen).
        self.my_working.setVisible(False)
        self.check_working_button = QPushButton("Check my working…")
        self.check_working_button.setToolTip("Each line's arithmetic and result against the solution (Ctrl+Enter)")
        self.my_verdicts = Label("")
        self.my_verdicts.setWordWrap(True)
        # From its first line down where the pane is short (150 % on a 768 px screen): centred, the
        # first line, the one a student reads first, was cut in half above the box.
        self.my_verdicts.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.my_verdicts.setVisible(False)
        self._working_for = ""  # the question the working in the box was written for ("": none solved yet)
        self._put_aside: dict[str, str] = {}  # other questions' workings, by question, until shown again
        mine = QHBoxLayout()  # the box, its buttons beside it in a column: one row less on a small screen
        mine.addWidget(self.my_working, 1)
        mine.addLayout(self._buttons())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.try_box)
        layout.addWidget(self.verdict)
        layout.addWidget(self.area, 1)
        layout.addLayout(mine)
        layout.addWidget(self.my_verdicts)
        self._tips = {button: button.toolTip() for button in (self.check_working_button, self.another_button)}
        self.check_working_button.clicked.connect(self._on_check_working)
        self.my_working.installEventFilter(self)  # Ctrl+Enter checks; Enter stays a new line
        self.check_button.clicked.connect(self.check)
        self.attempt.returnPressed.connect(self.check)
        self.reveal_button.clicked.connect(self.reveal_next)
        self.show_all_button.clicked.connect(self._on_show_all_clicked)
        self.show_steps([])
        self.offer_checks(NOTHING_SOLVED, NOTHING_TO_VARY)

    def _try_box(self) -> QWidget:
        """The student's answer and Check, then Reveal next step and Show everything."""
        self.attempt = QLineEdit(placeholderText="Your answer")
        self.check_button = QPushButton("Check")
        self.reveal_button = QPushButton("Reveal next step")
        self.show_all_button = QPushButton("Show everything")
        box = QWidget()
        rows = QVBoxLayout(box)  # two rows: the answer box keeps its width in a narrow pane
        rows.setContentsMargins(0, 0, 0, 0)
        for widgets in ((self.attempt, self.check_button), (self.reveal_button, self.show_all_button)):
            row = QHBoxLayout()
            for widget in widgets:
                row.addWidget(widget, 1 if widget is self.attempt else 0)
            rows.addLayout(row)
        return box

    def _buttons(self) -> QVBoxLayout:
        """Check my working, and Another one like this with the practice tally under it."""
        self.another_button = QPushButton("Another one like this")
        self.another_button.setToolTip(
            "A new question of this kind with other numbers: the program and chain of thought must agree on its answer"
        )
        self.another_button.clicked.connect(self.another_requested)
        self.tally = QPushButton("")  # the practice list, a click away
        self.tally.setFlat(True)
        self.tally.setVisible(False)
        self.tally.clicked.connect(self.show_practice_list)
        self._attempts: tuple[dict[str, int], list[PracticeAttempt]] = ({}, [])
        # A row of two while the box is hidden; beside the box, a column, the tally under them — not a
        # row of its own under the box: at 150 % on a 768 px screen that row was a third of what the
        # steps had left. The tally stays off the row: three side by side are wider than the pane.
        self._buttons_layout = buttons = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        buttons.addWidget(self.check_working_button)
        buttons.addWidget(self.another_button)
        column = QVBoxLayout()
        column.addLayout(buttons)
        column.addWidget(self.tally)
        column.addStretch(1)
        return column

    def open_my_working(self, *, focus: bool = True) -> None:
        """The box for the student's working, beside its buttons (focused); open from then on."""
        self.my_working.setVisible(True)
        self.check_working_button.setText("Check my working")  # it checks from now on: no "…"
        self._buttons_layout.setDirection(QBoxLayout.Direction.TopToBottom)
        if focus:
            self.my_working.setFocus()

    def restore(self, working: str) -> None:
        """The working the box held when PAL Studio stopped (for the question in the question box)."""
        if working.strip():
            self.my_working.setPlainText(working)
            self.open_my_working(focus=False)

    def working_for(self, question: str, *, fresh: bool = False) -> None:
        """The box holds `question`'s working: another question's is put aside, and back in the box
        when that question is shown again (reopened from the history), so a working is never checked
        against another question's answer, nor lost. Written before anything was solved, or for the
        same question edited (a typo mended, a number changed), it stays — unless `fresh` (a
        practice question, worked from nothing)."""
        if question == self._working_for:
            return
        if not fresh and question not in self._put_aside and _same_problem(question, self._working_for):
            self._working_for = question
            return
        text = self.my_working.toPlainText()
        if self._working_for and text.strip():
            self._put_aside[self._working_for] = text
            while len(self._put_aside) > _PUT_ASIDE:  # the oldest first
                del self._put_aside[next(iter(self._put_aside))]
        kept = self._put_aside.pop(question, None)
        if self._working_for or kept is not None:
            self.my_working.setPlainText(kept or "")
        self._working_for = question
        if kept:
            self.open_my_working(focus=False)

    @property
    def trying(self) -> bool:
        return self._answer is not None

    def show_steps(self, steps: list[WorkingStep], *, try_answer: str | None = None) -> None:
        """Show every step; or, with `try_answer`, none yet: the student tries first. Trying the
        same answer again (Step through re-runs the program) keeps the steps already revealed."""
        again = try_answer is not None and try_answer == self._answer
        self.steps, self._answer = steps, try_answer
        self.shown = min(self.shown, len(steps)) if again else 0 if try_answer is not None else len(steps)
        if try_answer is not None and not again:
            self._since, self._settled = time.strftime("%H:%M"), False
        self.try_box.setVisible(self.trying)
        self.attempt.clear()
        self.verdict.setText(
            f"Ready at {self._since}: work it out, then enter your answer — or reveal one step at a time."
            if self.trying
            else ""
        )
        self.verdict.setVisible(self.trying)
        self._render()

    def reveal_next(self) -> None:
        self.shown = min(self.shown + 1, len(self.steps))
        self._render()

    def check(self) -> None:
        if self._answer is None or not self.attempt.text().strip():
            return
        right = grade(self.attempt.text(), self._answer).correct
        if not self._settled:
            self.attempted.emit("right" if right else "wrong")
            self._settled = right
        if right:
            self.verdict.setText(f"Right: {self.attempt.text().strip()} is the answer.")
            self.shown = len(self.steps)
            self.finished_trying.emit()  # the answer pane shows it too
        else:
            first = self.steps[0] if self.steps else None
            compare = f" Compare your working with the first step: {first.text} {first.value}".rstrip() if first else ""
            self.verdict.setText(f"Not yet: {self.attempt.text().strip()} is not the answer.{compare}")
            self.shown = max(self.shown, 1)
        self._render()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.my_working and isinstance(event, QKeyEvent):
            enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            if enter and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
                if event.type() == QEvent.Type.ShortcutOverride:  # here Ctrl+Enter checks, it does not solve
                    event.accept()
                    return True
                if event.type() == QEvent.Type.KeyPress:
                    self._on_check_working()
                    return True
        return super().eventFilter(watched, event)

    def offer_checks(self, check_not: str = "", another_not: str = "") -> None:
        """Check my working needs an answer to compare with, Another one like this a program too:
        each is off, saying why on hover, where its reason is given (a cancelled vote, say: it
        asked "Solve the question first" of a question just solved)."""
        for button, why_not in ((self.check_working_button, check_not), (self.another_button, another_not)):
            button.setEnabled(not why_not)
            button.setToolTip(why_not or self._tips[button])

    def _on_check_working(self) -> None:
        if self.my_working.isHidden():
            self.open_my_working()
            return
        text = self.my_working.toPlainText()
        if text.strip() and not self.check_working_button.isEnabled():  # Ctrl+Enter in the box
            self.my_verdicts.setText(self.check_working_button.toolTip())
            self.my_verdicts.setVisible(True)
        elif text.strip():
            self.my_verdicts.setText("Checking your working…")
            self.my_verdicts.setVisible(True)
            self.check_requested.emit(text)

    def show_checked(self, checked: CheckedWorking | None) -> None:
        """Each line of the student's working, marked; the first wrong one says why, beside the
        solution's step (None: nothing checked against the solution shown)."""
        if checked is None:
            self.my_verdicts.clear()
            self.my_verdicts.setVisible(False)
            return
        rows = []
        for number, line in enumerate(checked.lines, start=1):
            mark = "✓" if line.ok else "✗"
            step = f"\n      the solution: {line.step}" if line.step and not line.ok else ""
            rows.append(f"{mark} {number}. {line.text} — {line.reason}{step}")
        first = checked.first_wrong
        rows.append("Every line is right." if first is None else f"Look again at line {first + 1}.")
        self.my_verdicts.setText(display_text("\n".join(rows)))
        self.my_verdicts.setVisible(True)

    def show_tally(self, tally: dict[str, int], attempts: list[PracticeAttempt]) -> None:
        """One short line (a wrapped one made the window taller than a 1366 × 768 screen at 150 %);
        every outcome on hover, every try a click away."""
        tried = sum(tally.values())
        self._attempts = (tally, attempts)
        self.tally.setText(f"Practice: {tally.get('right', 0)} of {tried} right…")
        self.tally.setToolTip(f"{tally_words(tally)}: click for the list")
        self.tally.setVisible(bool(tried))

    def show_practice_list(self) -> PracticeList:
        """Every try, newest first; one opened from it is shown as the history shows a solve."""
        shown = PracticeList(*self._attempts, parent=self)
        shown.chosen.connect(self.practice_chosen)
        shown.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        shown.open()
        return shown

    def _on_show_all_clicked(self) -> None:
        if self._answer is not None and not self._settled:
            self.attempted.emit("revealed")
        self._answer = None
        self.show_steps(self.steps)
        self.finished_trying.emit()

    def _render(self) -> None:
        box = QWidget()
        layout = QVBoxLayout(box)
        if not self.steps:
            layout.addWidget(Label("The worked solution appears here after a solve or a run."))
        self.formulas.clear()
        all_sent = True
        for step in self.steps[: self.shown]:
            prose = Label(display_text(step.text))
            prose.setWordWrap(True)
            layout.addWidget(prose)
            formula = _Formula()
            formula.setToolTip(f"line {step.line}")
            layout.addWidget(formula)
            all_sent &= self.formulas.show(formula, step.latex, size=1.25, text=display_text(step.latex))
        if not all_sent:
            layout.addWidget(Label("Some formulas are shown as text: there are too many to typeset.", wrap=True))
        hidden = len(self.steps) - self.shown
        if hidden:
            layout.addWidget(Label(f"{hidden} more step{'s' if hidden != 1 else ''} hidden"))
        layout.addStretch(1)
        self.area.setWidget(box)
        self.reveal_button.setEnabled(bool(hidden))


class _Formula(Label):
    """A step's typeset formula is never cut at the pane's edge (a loop's "→ total = 55" was): a
    wider one makes the Working tab scroll sideways, inside its own scroll area; the text shown
    until it is typeset stays capped like any label's."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        shown = self.pixmap()
        if shown.isNull():
            return super().minimumSizeHint()
        return shown.deviceIndependentSize().toSize()
