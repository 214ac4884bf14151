"""A picture (a chart, an equation's graph) that fits the width it is given.

A plain `QLabel` with a pixmap asks for the pixmap's full width, so a 550-pixel chart in a
narrow answer pane widened the whole window past a 1366-pixel screen. `Picture` asks for no
width at all: it shows the picture at its own size where there is room and scaled down, keeping
its proportions, where there is not.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPixmap, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.ui.plain import Label


class Picture(Label):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self._picture: QPixmap | None = None
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(1)

    def show_picture(self, picture: QPixmap) -> None:
        self._picture = picture
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._picture = None
        super().setText(text)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(1, super().sizeHint().height())  # the height of what is shown; no width of its own

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(1, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self._picture is None:
            return
        width = max(1, min(self.width(), self._picture.width()))
        if width == self._picture.width():
            shown = self._picture
        else:
            shown = self._picture.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
        if self.pixmap().cacheKey() != shown.cacheKey():
            super().setPixmap(shown)
