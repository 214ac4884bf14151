"""Small layout helpers: widgets stacked in a column, side by side in a row, a pane that
scrolls up and down on a short screen, a label that scrolls past a few lines."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QBoxLayout, QFrame, QHBoxLayout, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from app.ui.plain import Label


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


class ScrolledLabel(QScrollArea):
    """A word-wrapped `label` that takes the lines its text needs, up to `most_lines`, and scrolls
    beyond them: the answer's vote line and notes grow with each note a vote adds, and at 150 % in
    a 768 px screen eight lines of them made the window taller. It follows the label's visibility,
    so callers keep working with the label alone."""

    def __init__(self, label: Label, most_lines: int) -> None:
        super().__init__()
        self.label, self.most_lines = label, most_lines
        label.setWordWrap(True)
        self.setWidget(label)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        label.installEventFilter(self)
        self.viewport().installEventFilter(self)  # the label's new text asks it for a relayout

    def _most(self) -> int:
        return self.label.fontMetrics().lineSpacing() * self.most_lines

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        return min(self.label.heightForWidth(width), self._most())

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        width = self.width() if self.width() > 0 else self.label.sizeHint().width()
        return QSize(self.label.sizeHint().width(), self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.label.minimumSizeHint().width(), self.sizeHint().height())  # capped there

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if watched is self.label and kind in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.setVisible(kind is QEvent.Type.ShowToParent)
        elif watched is self.viewport() and kind is QEvent.Type.LayoutRequest:
            self.updateGeometry()  # new text: another height
        return super().eventFilter(watched, event)
