"""Small layout helpers: widgets stacked in a column, side by side in a row, or a pane that
scrolls up and down on a short screen."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget


def column(*widgets: QWidget, into: QWidget | None = None) -> QWidget:
    """`widgets` top to bottom, in `into` (else a new widget), which is returned."""
    box = into if into is not None else QWidget()
    return _fill(box, QVBoxLayout(box), widgets, margins=True)


def row(*widgets: QWidget, into: QWidget | None = None) -> QWidget:
    """`widgets` left to right, without margins (a row sits inside a column)."""
    box = into if into is not None else QWidget()
    return _fill(box, QHBoxLayout(box), widgets, margins=False)


def _fill(box: QWidget, layout: QBoxLayout, widgets: tuple[QWidget, ...], *, margins: bool) -> QWidget:
    if not margins:
        layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    return box


class VerticalScroll(QScrollArea):
    """A pane that scrolls up and down when the screen is short (1366×768 at 150 %: 512 logical
    pixels, less than the Question pane's controls with the restore bar above them), so the window
    fits the screen instead of pushing its bottom, the status bar, off it. As wide as the pane needs."""

    def __init__(self, pane: QWidget) -> None:
        super().__init__()
        self.setWidget(pane)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        pane = self.widget()
        width = pane.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width() if pane else 0
        return QSize(width, super().minimumSizeHint().height())
