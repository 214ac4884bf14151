"""A Python editor: line numbers, syntax highlighting, and a highlighted failing line."""

from __future__ import annotations

import keyword
import re

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextBlock,
    QTextCharFormat,
    QTextDocument,
    QTextFormat,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QWidget

# Contrast (WCAG AA asks 4.5:1 for text): comments #5b6470 on white 5.7:1 (was #8c8c8c, 3.4:1);
# line numbers #5f6368 on the gutter's #f3f3f3 5.5:1 (was #999999, 2.6:1).
COMMENT_COLOUR = "#5b6470"
LINE_NUMBER_COLOUR = "#5f6368"
GUTTER_COLOUR = "#f3f3f3"

_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b(" + "|".join(keyword.kwlist) + r")\b"), "#0033b3"),
    (re.compile(r"\b(print|range|len|sum|min|max|abs|round|int|float|str|list|dict|solve_it)\b"), "#7a3e9d"),
    (re.compile(r"\b\d+(\.\d*)?([eE][-+]?\d+)?\b"), "#1750eb"),
    (re.compile(r"(\"[^\"\n]*\"|'[^'\n]*')"), "#067d17"),
    (re.compile(r"#[^\n]*"), COMMENT_COLOUR),
]


class PythonHighlighter(QSyntaxHighlighter):
    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)
        self._formats = []
        for pattern, colour in _RULES:
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            self._formats.append((pattern, fmt))

    def highlightBlock(self, text: str) -> None:  # noqa: N802 (Qt's name)
        for pattern, fmt in self._formats:  # later rules (strings, comments) win over earlier ones
            for match in pattern.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), fmt)


class _LineNumbers(QWidget):
    def __init__(self, editor: CodeEditor) -> None:
        super().__init__(editor)
        self._editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(self._editor.line_number_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        self._editor.paint_line_numbers(self, event)


class CodeEditor(QPlainTextEdit):
    """Plain-text Python editor; `mark_error_line(n)` and `mark_step_line(n)` highlight line n
    (1-based) in red and blue; 0 clears."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self._numbers = _LineNumbers(self)
        self._highlighter = PythonHighlighter(self.document())
        self.blockCountChanged.connect(self._on_block_count_changed)
        self.updateRequest.connect(self._on_update_request)
        self._on_block_count_changed()
        self.error_line = 0
        self.step_line = 0
        self.emulated_lines: frozenset[int] = frozenset()
        # The bands are drawn at text positions, the gutter by line number: redrawn on each change,
        # they stay on the numbered line (a replaced program left the band on another line).
        self.textChanged.connect(self._update_marks)

    def line_number_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 14 + self.fontMetrics().horizontalAdvance("9") * digits + self.fontMetrics().horizontalAdvance("▶")

    def mark_error_line(self, line: int) -> None:
        self.error_line = line
        self._update_marks()

    def mark_emulated_lines(self, lines: frozenset[int]) -> None:
        """Chain of Code: the lines the model emulated (shaded violet under the other marks)."""
        self.emulated_lines = lines
        self._update_marks()

    def mark_step_line(self, line: int) -> None:
        """The line the stepper is at (1-based; 0 clears)."""
        self.step_line = line
        self._update_marks()
        block = self._block(line)
        if block is not None:
            cursor = self.textCursor()
            cursor.setPosition(block.position())
            self.setTextCursor(cursor)
            self.ensureCursorVisible()

    def _block(self, line: int) -> QTextBlock | None:
        """Line `line` (1-based) of the program, or None for 0 and for any line it does not have
        (a run's report may name any number; Qt's int would overflow on a huge one)."""
        return self.document().findBlockByNumber(line - 1) if 0 < line <= self.blockCount() else None

    def _update_marks(self) -> None:
        selections = []
        marks = [(line, EMULATED_COLOUR) for line in sorted(self.emulated_lines)]
        for line, colour in [*marks, (self.error_line, "#ffd7d7"), (self.step_line, STEP_COLOUR)]:
            block = self._block(line)
            if block is None:
                continue
            selection = QTextEdit.ExtraSelection()
            selection.format.setBackground(QColor(colour))
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            selection.cursor = self.textCursor()
            selection.cursor.setPosition(block.position())
            selections.append(selection)
        self.setExtraSelections(selections)

    def paint_line_numbers(self, widget: QWidget, event: QPaintEvent) -> None:
        painter = QPainter(widget)
        painter.fillRect(event.rect(), QColor(GUTTER_COLOUR))
        painter.setFont(self.font())
        block = self.firstVisibleBlock()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        while block.isValid() and top <= event.rect().bottom():
            height = round(self.blockBoundingRect(block).height())
            number = block.blockNumber() + 1
            painter.setPen(QColor("#c00000") if number == self.error_line else QColor(LINE_NUMBER_COLOUR))
            painter.drawText(0, top, widget.width() - 6, height, Qt.AlignmentFlag.AlignRight, str(number))
            if number == self.step_line:  # the stepper's line: a bold arrow, seen at a glance
                painter.setPen(QColor(STEP_ARROW_COLOUR))
                painter.drawText(1, top, widget.width(), height, Qt.AlignmentFlag.AlignLeft, "▶")
            block = block.next()
            top += height
        painter.end()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        rect = self.contentsRect()
        self._numbers.setGeometry(QRect(rect.left(), rect.top(), self.line_number_width(), rect.height()))

    def _on_block_count_changed(self, _count: int = 0) -> None:
        self.setViewportMargins(self.line_number_width(), 0, 0, 0)

    def _on_update_request(self, rect: QRect, dy: int) -> None:
        if dy:
            self._numbers.scroll(0, dy)
        else:
            self._numbers.update(0, rect.y(), self._numbers.width(), rect.height())


EMULATED_COLOUR = "#ece0ff"
STEP_COLOUR = "#a9cdf7"  # the stepper's line: strong enough to find on a laptop screen in daylight
STEP_ARROW_COLOUR = "#0b4f9c"


def monospace() -> QFont:
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def show_growing(box: QPlainTextEdit, shown: str) -> None:
    """Show `shown` in `box`, which held an earlier, shorter state of it: only new text is
    inserted at the end (the view keeps its place); a hidden fence or a new start redraws it."""
    current = box.toPlainText()
    if shown.startswith(current):
        cursor = box.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(shown[len(current) :])
    else:
        box.setPlainText(shown)
