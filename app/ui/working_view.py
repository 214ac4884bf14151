"""The worked solution: each step's prose, then its mathematics typeset (matplotlib's mathtext,
offline); plain text where a formula cannot be typeset. A view only."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from app.reasoning.working import WorkingStep
from app.ui.math_view import render_latex
from sandbox.display import display_text


class WorkingView(QScrollArea):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.steps: list[WorkingStep] = []
        self._show([])

    def show_steps(self, steps: list[WorkingStep]) -> None:
        self.steps = steps
        self._show(steps)

    def _show(self, steps: list[WorkingStep]) -> None:
        box = QWidget()
        layout = QVBoxLayout(box)
        if not steps:
            layout.addWidget(QLabel("The worked solution appears here after a solve or a run."))
        for step in steps:
            prose = QLabel(display_text(step.text))
            prose.setTextFormat(Qt.TextFormat.PlainText)  # the program's comments are not markup
            prose.setWordWrap(True)
            layout.addWidget(prose)
            formula = QLabel()
            pixmap = render_latex(step.latex, dpi=110)
            if pixmap is not None:
                formula.setPixmap(pixmap)
            else:
                formula.setTextFormat(Qt.TextFormat.PlainText)
                formula.setText(display_text(step.latex))
            formula.setToolTip(f"line {step.line}")
            layout.addWidget(formula)
        layout.addStretch(1)
        self.setWidget(box)
