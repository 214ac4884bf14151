"""The proposed repair of a program: what changed (a unified diff), then Accept or Revert.

Signals: accepted(), reverted(str: the program before the repair). Hidden until a repair is
proposed and again once the user chose.
"""

from __future__ import annotations

import difflib

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.reasoning.extract import streamed_program
from app.ui.code_editor import monospace


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
            self.accept_button.setEnabled(False)
            self.setVisible(True)
        self._streamed += text
        self.diff.setPlainText("Writing the repair…\n\n" + streamed_program(self._streamed))

    def propose(self, before: str, after: str) -> None:
        self.before = before
        lines = difflib.unified_diff(before.splitlines(), after.splitlines(), "before", "repaired", lineterm="")
        self.diff.setPlainText("\n".join(lines))
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
