"""Typeset math for sympy results and worked steps: LaTeX rendered offline by matplotlib's mathtext.

Mathtext is slow — one formula of a few hundred characters can take most of a second (measured: a
1,900-character \\mathrm run 0.93 s, and its first use imports half of matplotlib) — so it runs on
the pane's drawing thread (`Formulas`): a label shows its formula as text at once and the picture
when it arrives. Formulas longer than `MAX_LATEX_CHARS` are not typeset, a view sends at most
`MAX_PER_VIEW` formulas per redraw, and every picture is kept, so a reveal or a redraw reuses it.

A formula is typeset for the label that shows it: its letters `size` times the label's text (so a
larger system font gives larger formulas, never smaller than the words around them), at the
screen's pixel ratio (crisp at 150 %, not a blurred enlargement).
"""

from __future__ import annotations

import io
from collections import OrderedDict

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QFontInfo, QPixmap
from PySide6.QtWidgets import QLabel
from shiboken6 import isValid

from app.ui.background import Background

MAX_LATEX_CHARS = 300
MAX_PER_VIEW = 60
MATHTEXT_POINTS = 10  # the size mathtext typesets at (matplotlib's font.size): dpi scales it
_KEPT = 512
_pictures: OrderedDict[tuple[str, int, float], QPixmap | None] = OrderedDict()  # UI thread only


def latex_png(latex: str, dpi: int) -> bytes | None:
    """The formula as PNG bytes, or None when mathtext cannot typeset it. Any thread."""
    if not latex.strip() or len(latex) > MAX_LATEX_CHARS:
        return None
    from matplotlib import mathtext  # loaded on first use: it takes a moment

    buffer = io.BytesIO()
    try:
        mathtext.math_to_image(f"${latex}$", buffer, dpi=dpi, format="png")
    except (ValueError, RuntimeError):  # RecursionError too: deeply nested input
        return None
    return buffer.getvalue()


def render_latex(latex: str, *, dpi: int = 140) -> QPixmap | None:
    """The formula as a picture, typeset now on this thread (kept for next time); None when it
    cannot be typeset."""
    key = (latex, dpi, 1.0)
    if key not in _pictures:
        _keep(key, latex_png(latex, dpi))
    _pictures.move_to_end(key)
    return _pictures[key]


def typeset_for(label: QLabel, latex: str, size: float) -> tuple[str, int, float]:
    """The picture `label` wants for `latex`: (latex, dpi, pixel ratio)."""
    ratio = label.devicePixelRatioF()
    letters = QFontInfo(label.font()).pixelSize() * size  # logical pixels
    return latex, max(round(letters * 72 / MATHTEXT_POINTS * ratio), 30), ratio


def _keep(key: tuple[str, int, float], png: bytes | None) -> None:
    picture = QPixmap()
    loaded = png is not None and picture.loadFromData(png, "PNG")
    if loaded:
        picture.setDevicePixelRatio(key[2])
    _pictures[key] = picture if loaded else None
    if len(_pictures) > _KEPT:
        _pictures.popitem(last=False)


class Formulas(QObject):
    """Puts typeset formulas into labels, typesetting on `drawing`'s thread.

    `clear()` starts a new redraw: pictures still on their way for the old labels (which the view
    may have deleted) are kept but not shown. Signals: typeset() — a picture arrived and is shown.
    """

    typeset = Signal()

    def __init__(self, drawing: Background, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._drawing = drawing
        self._redraw = 0
        self._sent = 0

    def clear(self) -> None:
        self._redraw += 1
        self._sent = 0

    def show(self, label: QLabel, latex: str, *, size: float, text: str) -> bool:
        """The formula's picture in `label` (now if kept, else when typeset), its letters `size`
        times the label's text; `text` meanwhile or when it cannot be typeset. False when this
        redraw already sent `MAX_PER_VIEW` formulas."""
        key = typeset_for(label, latex, size)
        dpi = key[1]
        if key in _pictures:
            self._put(label, _pictures[key], text)
            return True
        label.setText(text)
        if self._sent >= MAX_PER_VIEW:
            return False
        self._sent += 1
        redraw = self._redraw

        def job(_report: object) -> tuple[bool, bytes | None]:
            if redraw != self._redraw:  # read-only from this thread; a newer redraw: skip the work
                return False, None
            return True, latex_png(latex, dpi)

        def arrived(outcome: tuple[bool, bytes | None]) -> None:
            done, png = outcome
            if done:
                _keep(key, png)
            if done and redraw == self._redraw and isValid(label):  # the view may be gone altogether
                self._put(label, _pictures[key], text)
                self.typeset.emit()

        self._drawing.submit(job, on_success=arrived, on_failure=lambda _error: None, name="typeset")
        return True

    @staticmethod
    def _put(label: QLabel, picture: QPixmap | None, text: str) -> None:
        # Content only, never visibility: showing a label before its view adds it to a layout
        # would make it a window of its own and take the focus from the main window.
        if picture is None:
            label.setText(text)
        else:
            label.setPixmap(picture)
