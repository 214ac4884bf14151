"""Two small layout helpers: widgets stacked in a column, or side by side in a row."""

from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QVBoxLayout, QWidget


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
