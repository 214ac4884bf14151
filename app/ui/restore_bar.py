"""The bar that offers back the work an unclean exit left behind (crash, kill, power cut).

Signals: restore_clicked(), discard_clicked(). Hidden until `offer()`; it holds the text only.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QSizePolicy, QWidget

from app.ui.plain import Label


class RestoreBar(QFrame):
    restore_clicked = Signal()
    discard_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("restoreBar")
        self.setStyleSheet("#restoreBar { background: #fff4ce; border: 1px solid #c8a600; }")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)  # the panes keep the height
        self.message = Label(wrap=True)
        self.restore_button = QPushButton("Restore")
        self.discard_button = QPushButton("Discard")
        layout = QHBoxLayout(self)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.restore_button)
        layout.addWidget(self.discard_button)
        self.restore_button.clicked.connect(self.restore_clicked)
        self.discard_button.clicked.connect(self.discard_clicked)
        self.hide()

    def offer(self, question: str, crash_report: str | None, *, closed: bool = False) -> None:
        """`closed`: the user closed the app during a solve (and agreed to stop it) — not a crash."""
        first_line = question.strip().splitlines()[0] if question.strip() else "a program"
        if len(first_line) > 80:
            first_line = first_line[:79] + "…"
        if closed:
            text = f"You closed PAL Studio while it was solving. Restore your work on “{first_line}”?"
        else:
            text = f"PAL Studio did not close normally last time. Restore your work on “{first_line}”?"
        if crash_report:
            text += f" The crash report is in {crash_report}."
        self.message.setText(text)
        self.show()
        self.restore_button.setFocus()
