"""A vote's solves side by side while the model writes them: one column per solve ("Program 2 of
5", "Chain of thought"), its words or its program (fences hidden) growing as its sequence decodes,
its answer in its heading once it has run. A batched vote fills every column at once; a
one-at-a-time model, one after another. While the student tries the question themselves
(`hiding`), the answers and chain of thought's words wait until `reveal()`.

A view only: the window hands it the vote's events. It scrolls: a second round's row of columns
must not make the window taller than the screen (seen at 150 %: 708 → 746 px high in a 768 px screen).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPlainTextEdit, QScrollArea, QWidget

from app.reasoning.extract import streamed_program
from app.reasoning.plain_math import plain_math
from app.reasoning.short_answer import shown_answer
from app.ui.code_editor import monospace, show_growing
from app.ui.plain import Label
from sandbox.display import display_text

_COLUMNS = 3  # five programs in a narrow pane: two rows of three columns stay readable


class LanesView(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.headers: list[QLabel] = []
        self.texts: list[QPlainTextEdit] = []
        self._labels: list[str] = []
        self._streams: list[str] = []  # each lane's reply so far
        self._finished: set[int] = set()
        self._answers: dict[int, str | None] = {}
        self.hiding = False  # the student tries it first: no answer, and no words that say it
        self._cancelled = False  # the user stopped the vote: a lane that ends now was cut off, not failed
        columns = QWidget()
        self._grid = QGridLayout(columns)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self.setWidget(columns)
        self.setWidgetResizable(True)  # as wide as the pane; taller only where the rows need it
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVisible(False)

    def start(self, labels: list[str]) -> None:
        """A vote begins: one empty column per solve."""
        self.clear()
        self._cancelled = False
        self.add(labels)

    def add(self, labels: list[str]) -> None:
        """More solves join the vote (a second round): a column each after the ones there."""
        first = len(self._labels)
        self._labels += labels
        self._streams += ["" for _ in labels]
        font = QFont(monospace())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))  # several columns share the pane's width
        for lane, label in enumerate(labels, start=first):
            header = Label(f"{label} …", wrap=True)  # "Chain of thought sample 1 of 2: 60" in a third of the pane
            text = QPlainTextEdit(readOnly=True)
            text.setFont(font)
            text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            text.setWordWrapMode(text.wordWrapMode().WrapAtWordBoundaryOrAnywhere)
            text.setMinimumHeight(60)
            text.setPlaceholderText("Reading the question…")  # a cold prompt takes seconds before any word
            row, column = divmod(lane, _COLUMNS)
            self._grid.addWidget(header, 2 * row, column)
            self._grid.addWidget(text, 2 * row + 1, column)
            self.headers.append(header)
            self.texts.append(text)
        self.setVisible(bool(self._labels))

    def wait(self, lanes: tuple[int, ...], reason: str) -> None:
        """Solves that are decoded in a later turn say so until their first words."""
        for lane in lanes:
            if 0 <= lane < len(self.texts):
                self.texts[lane].setPlaceholderText(reason[:1].upper() + reason[1:])

    def append(self, lane: int, text: str) -> None:
        """More of solve `lane`'s reply: its words, or its program with the fences hidden as in the
        editor; the column follows the end."""
        if 0 <= lane < len(self.texts):
            self._streams[lane] += text
            box = self.texts[lane]
            if self.hiding and self._in_words(lane):  # its words end in the answer
                box.setPlaceholderText("Its words are hidden while you try it yourself")
                return
            show_growing(box, self._shown(lane))
            box.moveCursor(QTextCursor.MoveOperation.End)
            box.ensureCursorVisible()

    def finish(self, lane: int, answer: str | None) -> None:
        """Solve `lane` has run: its answer (or that it failed) in its heading."""
        if 0 <= lane < len(self.headers):
            self._finished.add(lane)
            self._answers[lane] = answer
            said = display_text(shown_answer(answer)) if answer is not None else self._no_answer()
            self.headers[lane].setText(f"{self._labels[lane]}: {'done' if self.hiding else said}")

    def reveal(self) -> None:
        """The student has seen the answer: each column's answer and words."""
        self.hiding = False
        for lane, answer in self._answers.items():
            self.finish(lane, answer)
        for lane, stream in enumerate(self._streams):
            if self._in_words(lane) and stream:
                show_growing(self.texts[lane], self._shown(lane))

    def _in_words(self, lane: int) -> bool:
        return self._labels[lane].lower().startswith("chain of thought")

    def _shown(self, lane: int) -> str:
        """Lane `lane`'s reply so far as shown: a program without its fences, words without LaTeX."""
        stream = self._streams[lane]
        return display_text(plain_math(stream) if self._in_words(lane) else streamed_program(stream))

    def not_needed(self, lane: int) -> None:
        """Solve `lane` was never run (the others had settled the vote), or ran and is not counted:
        stopped once the answers in hand settled it, or a chain decoded beside PoT where fewer were
        needed (its column does not claim the others agree: they may not)."""
        if 0 <= lane < len(self.headers):
            self._finished.add(lane)
            said = "not counted, the vote needed fewer" if self._streams[lane] else "not needed, the others agree"
            self.headers[lane].setText(f"{self._labels[lane]}: {said}")
            self.texts[lane].setPlaceholderText("Not needed: the answers already in settle the vote")

    def cancel(self) -> None:
        """The user stopped the vote: columns still being written, and those that end without an
        answer from now on, say "cancelled"."""
        self._cancelled = True
        for lane, label in enumerate(self._labels):
            if lane not in self._finished:
                self.headers[lane].setText(f"{label}: cancelled")

    def _no_answer(self) -> str:
        return "cancelled" if self._cancelled else "failed"

    def clear(self) -> None:
        for widget in (*self.headers, *self.texts):
            self._grid.removeWidget(widget)
            widget.deleteLater()
        self.headers, self.texts, self._labels, self._streams = [], [], [], []
        self._finished, self._answers = set(), {}
        self.setVisible(False)
