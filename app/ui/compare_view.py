"""The Compare tab: a vote's leading answers side by side, each with the program (or chain of
thought's reasoning) behind it, so a student can see where they part before trusting either."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.reasoning.rivals import Rival
from app.reasoning.short_answer import shown_answers
from app.ui.code_editor import monospace
from app.ui.plain import Label, tip
from sandbox.display import display_text

COLUMNS = 2
EMPTY = "When a vote's answers disagree, the leading ones are shown here side by side."


class CompareView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = Label(EMPTY)
        self.note.setWordWrap(True)
        self.headers: list[QLabel] = []
        self.texts: list[QPlainTextEdit] = []
        columns = QHBoxLayout()
        for _ in range(COLUMNS):
            header = Label("")
            header.setWordWrap(True)
            text = QPlainTextEdit(readOnly=True)
            text.setFont(monospace())
            column = QVBoxLayout()
            column.addWidget(header)
            column.addWidget(text)
            columns.addLayout(column)
            self.headers.append(header)
            self.texts.append(text)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addLayout(columns)
        self.show_rivals([])

    def show_rivals(self, rivals: list[Rival]) -> None:
        self.note.setText(EMPTY if len(rivals) < 2 else "The leading answers and the work behind each:")
        names = shown_answers([rival.answer for rival in rivals])
        for index, (header, text) in enumerate(zip(self.headers, self.texts, strict=True)):
            rival = rivals[index] if len(rivals) >= 2 and index < len(rivals) else None
            header.setVisible(rival is not None)
            text.setVisible(rival is not None)
            if rival is None:
                header.clear()
                text.clear()
                continue
            votes = "1 vote" if rival.count == 1 else f"{rival.count} votes"
            header.setText(display_text(f"{names[index]} — {votes}; {rival.by}:"))
            header.setToolTip(tip(display_text(rival.answer)))
            text.setPlainText(display_text(rival.work) or "(nothing to show)")
            # Words and programs both wrap: two columns side by side in a narrow pane cannot scroll
            # sideways usefully, and a program's long line is easier to compare whole.
            text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            text.setWordWrapMode(text.wordWrapMode().WrapAtWordBoundaryOrAnywhere)
