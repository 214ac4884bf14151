"""The proposed repair of a program: what changed, line by line — each changed line says
"removed" or "added" in words and is shaded red or green (colour is never the only sign) — then
Accept or Revert.

Signals: accepted(), reverted(str: the program before the repair). Hidden until a repair is
proposed and again once the user chose.
"""

from __future__ import annotations

import difflib

from PySide6.QtCore import Signal
from PySide6.QtGui import QColor, QTextFormat
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from app.reasoning.extract import streamed_program
from app.ui.code_editor import monospace

_SHADE = {"removed": "#ffd7d7", "added": "#d4f5d4"}


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    """The repair as (kind, line) pairs in reading order: "same", "removed" or "added"."""
    old, new = before.splitlines(), after.splitlines()
    lines: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            lines += [("same", line) for line in old[i1:i2]]
            continue
        lines += [("removed", line) for line in old[i1:i2]]
        lines += [("added", line) for line in new[j1:j2]]
    return lines


class RepairView(QWidget):
    accepted = Signal()
    reverted = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.diff = QPlainTextEdit(readOnly=True)
        self.diff.setFont(monospace())
        self.accept_button = QPushButton("Accept repair")
        self.revert_button = QPushButton("Revert")
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.revert_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.diff)
        layout.addLayout(buttons)
        self.before: str | None = None  # the program the repair would replace
        self._streamed = ""
        self.accept_button.clicked.connect(self._on_accept_clicked)
        self.revert_button.clicked.connect(self._on_revert_clicked)
        self.dismiss()

    def stream(self, text: str) -> None:
        """The repair as the model writes it (the diff replaces it once it is complete)."""
        if not self.isVisible():
            self._streamed = ""
            self.diff.setExtraSelections([])  # the last proposal's shading
            self.accept_button.setEnabled(False)
            self.setVisible(True)
        self._streamed += text
        self.diff.setPlainText("Writing the repair…\n\n" + streamed_program(self._streamed))

    def propose(self, before: str, after: str) -> None:
        self.before = before
        lines = changed_lines(before, after)
        self.diff.setPlainText("\n".join(f"{'' if kind == 'same' else kind:<8}│ {line}" for kind, line in lines))
        shaded = []
        for number, (kind, _line) in enumerate(lines):
            if kind in _SHADE:
                band = QTextEdit.ExtraSelection()
                band.format.setBackground(QColor(_SHADE[kind]))
                band.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                band.cursor = self.diff.textCursor()
                band.cursor.setPosition(self.diff.document().findBlockByNumber(number).position())
                shaded.append(band)
        self.diff.setExtraSelections(shaded)
        self.accept_button.setEnabled(True)
        self.setVisible(True)

    def dismiss(self) -> None:
        self.before = None
        self.setVisible(False)

    def _on_accept_clicked(self) -> None:
        self.dismiss()
        self.accepted.emit()

    def _on_revert_clicked(self) -> None:
        before = self.before
        self.dismiss()
        if before is not None:
            self.reverted.emit(before)
