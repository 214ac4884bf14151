"""The Question pane: the question, an optional pasted table, examples, the method and the buttons
that start and stop a solve. It shows and collects; the window decides what a click does. A
reopened solve brings its question and method back; a different question makes `Work` forget the
old answer (the program stays, to be run or edited for the new one)."""

from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout, QCheckBox, QComboBox, QPlainTextEdit, QPushButton, QWidget

from app.data import DataSet
from app.data.describe import describe
from app.reasoning import Solution
from app.reasoning.method_table import PLAIN_CHOICES, picker
from app.reasoning.tables import with_table
from app.ui.layouts import column, row
from app.ui.plain import Label, heading
from app.ui.work import Work

EXAMPLES = (
    "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?",
    "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?",
    "A train travels 180 km in 2.5 hours. What is its average speed in km/h?",
    "Solve for x: 3x + 7 = 25.",
)


_MIN_LINES, _MAX_LINES = 3, 14


class QuestionPane(QWidget):
    def __init__(self, work: Work, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._work = work
        self.question = QPlainTextEdit(placeholderText="Type a question that needs calculation…")
        self.table = QPlainTextEdit(placeholderText="Optional table: paste CSV or tab-separated rows")
        self.table.setMaximumHeight(90)
        for box in (self.question, self.table):  # Tab moves on: keyboard users are not trapped in a text box
            box.setTabChangesFocus(True)
        self.examples = QComboBox()
        self.examples.addItem("Examples…")
        self.examples.addItems(EXAMPLES)
        self.method = QComboBox()
        for key, title in picker():
            self.method.addItem(title, key)
            if key is None:  # a heading, not a choice
                self.method.model().item(self.method.count() - 1).setEnabled(False)  # type: ignore[attr-defined]
        self.method.insertSeparator(PLAIN_CHOICES)  # the plain choices, then the others with what they measured
        self.method.setToolTip(
            "Fast: one program. Cross-checked: PAL's answer first, then chain of thought checks it and PoT "
            "votes where they disagree; when they disagree, compare them. Explain in words: chain of thought, "
            "no program. "
            "Below the line: more methods."
        )
        for combo in (self.examples, self.method):  # their longest item must not set the pane's width
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        self.auto_repair = QCheckBox("Auto-repair once on error")
        self.try_yourself = QCheckBox("Try it yourself: hide the answer")
        self.settings_button = QPushButton("Model and settings… (Ctrl+,)")
        self.solve_button = QPushButton("Solve (Ctrl+Enter)")
        self.cancel_button = QPushButton("Cancel (Esc)")
        self.cancel_button.setEnabled(False)
        self.open_data_button = QPushButton("Open data… (Ctrl+O)")
        self.open_data_button.setToolTip(
            "A CSV, TSV, .xlsx, JSON or JSON-lines file to ask about (or drop it on the window)"
        )
        # Short: beside "Open data…" it set the window's narrowest width (1,346 px at 150 %, on a 1,366 px screen)
        self.remove_data_button = QPushButton("Remove")
        self.remove_data_button.setToolTip("Close the data file; questions are then about their own text")
        self.data_label = Label("")
        self.data_label.setWordWrap(True)
        # Exactly the data part of the prompt: columns, types, units, gaps and sample rows.
        self.data_told_button = QPushButton("What the model is told ▸")
        self.data_told_button.setCheckable(True)
        self.data_told_button.setToolTip(
            "The model sees the data's shape and up to three rows; the program reads every row"
        )
        self.data_told = QPlainTextEdit(readOnly=True)
        self.data_told.setMaximumHeight(180)
        self.data_told.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.data_told_button.toggled.connect(self._on_data_told_toggled)
        column(
            heading("Question"), self.question, self.table, row(self.open_data_button, self.remove_data_button),
            self.data_label, self.data_told_button, self.data_told, self.examples, self.method, self.auto_repair,
            self.try_yourself, row(self.solve_button, self.cancel_button), self.settings_button, into=self,
        )  # fmt: skip
        self.show_data(None)
        self.examples.activated.connect(self._on_examples_activated)
        layout = self.layout()
        if isinstance(layout, QBoxLayout):
            layout.addStretch(1)  # spare height stays below the controls, not in an empty question box
        self.question.document().contentsChanged.connect(self._fit_question)
        self._fit_question()
        self.try_yourself.toggled.connect(work.set_try_yourself)
        self.question.textChanged.connect(self._on_question_text_changed)
        work.solution_changed.connect(self._on_solution_changed)

    def _on_solution_changed(self, solution: Solution) -> None:
        if self._work.origin in ("reopen", "practice"):
            self.question.setPlainText(solution.question)
            self.table.clear()
            self.pick_method(solution.method)

    def _on_question_text_changed(self) -> None:
        shown = self._work.solution
        if shown is not None and self.full_question().strip() != shown.question.strip():
            self._work.forget()

    def show_data(self, data: DataSet | None) -> None:
        """The open data file in a line or two, with what was changed on the way in."""
        notes = [note for table in data.tables for note in table.notes] if data else []
        text = data.summary + "".join(f"\n• {note}" for note in notes[:4]) if data else ""
        self.data_label.setText(text)
        self.data_label.setVisible(data is not None)
        self.data_told.setPlainText(describe(data) if data else "")
        self.data_told_button.setVisible(data is not None)
        self._on_data_told_toggled(self.data_told_button.isChecked())
        self.remove_data_button.setVisible(data is not None)
        self.table.setVisible(data is None)  # a pasted table or a data file, not both

    def _on_data_told_toggled(self, shown: bool) -> None:
        self.data_told.setVisible(shown and not self.data_told_button.isHidden())
        self.data_told_button.setText(f"What the model is told {'▾' if shown else '▸'}")

    def full_question(self) -> str:
        """The question as the model gets it: with the pasted table's rows first."""
        return with_table(self.question.toPlainText(), self.table.toPlainText())

    def missing(self) -> str | None:
        """Why there is nothing to solve yet, or None: a question typed into the table box (seen in
        the window) is not solved as rows with no question."""
        if self.question.toPlainText().strip():
            return None
        if self.table.toPlainText().strip():
            return "Type the question in the box above: the box below it is for rows of a table."
        return "Type a question first."

    def method_name(self) -> str:
        return str(self.method.currentData())

    def pick_method(self, name: object) -> None:
        """Select the method `name`; a name that is none of them (a practice question's, a hand
        run's, one from an older version) leaves the choice as it is: showing a practice question
        switched the user's method to the first one, Fast."""
        index = self.method.findData(name)
        if index >= 0:
            self.method.setCurrentIndex(index)

    def set_busy(self, busy: bool) -> None:
        self.solve_button.setEnabled(not busy)
        self.cancel_button.setEnabled(busy)

    def _fit_question(self) -> None:
        """The question box is as tall as its text (3 to 14 lines); a longer one scrolls."""
        lines = max(self.question.document().size().height(), 1)  # in lines: a plain-text document's unit
        metrics = self.question.fontMetrics()
        shown = min(max(int(lines), _MIN_LINES), _MAX_LINES)
        margins = self.question.contentsMargins()
        frame = 2 * self.question.frameWidth() + margins.top() + margins.bottom() + 8
        self.question.setFixedHeight(shown * metrics.lineSpacing() + frame)

    def _on_examples_activated(self, index: int) -> None:
        if index > 0:
            self.question.setPlainText(self.examples.itemText(index))
            self.examples.setCurrentIndex(0)
