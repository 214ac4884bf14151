"""Typeset math for sympy results and worked steps: LaTeX rendered offline by matplotlib's mathtext.

Mathtext runs on the UI thread, and one formula of a few hundred characters can take most of a
second (measured: a 1,900-character \\mathrm run 0.93 s). So formulas longer than
`MAX_LATEX_CHARS` are not typeset, pictures are kept (a reveal or a redraw reuses them), and a
`Typesetter` gives one view's redraw a total budget: past it, formulas are shown as plain text.
"""

from __future__ import annotations

import io
import time
from collections import OrderedDict

from PySide6.QtGui import QPixmap

MAX_LATEX_CHARS = 300
BUDGET_S = 1.0  # of typesetting in one redraw of a view
_KEPT = 256
_pictures: OrderedDict[tuple[str, int], QPixmap | None] = OrderedDict()


def render_latex(latex: str, *, dpi: int = 140) -> QPixmap | None:
    """The formula as an image, or None when mathtext cannot typeset it (the caller shows text)."""
    key = (latex, dpi)
    if key in _pictures:
        _pictures.move_to_end(key)
        return _pictures[key]
    picture = _typeset(latex, dpi)
    _pictures[key] = picture
    if len(_pictures) > _KEPT:
        _pictures.popitem(last=False)
    return picture


def _typeset(latex: str, dpi: int) -> QPixmap | None:
    if not latex.strip() or len(latex) > MAX_LATEX_CHARS:
        return None
    from matplotlib import mathtext  # loaded on first use: it takes a moment

    buffer = io.BytesIO()
    try:
        mathtext.math_to_image(f"${latex}$", buffer, dpi=dpi, format="png")
    except (ValueError, RuntimeError):  # RecursionError too: deeply nested input
        return None
    pixmap = QPixmap()
    return pixmap if pixmap.loadFromData(buffer.getvalue(), "PNG") else None


class Typesetter:
    """Typesets for one redraw within `budget_s`; once it is spent, only kept pictures are given
    and `ran_out` says some formulas were left as text."""

    def __init__(self, budget_s: float = BUDGET_S) -> None:
        self.left = budget_s
        self.ran_out = False

    def render(self, latex: str, *, dpi: int = 140) -> QPixmap | None:
        if (latex, dpi) in _pictures:
            return render_latex(latex, dpi=dpi)
        if self.left <= 0:
            self.ran_out = True
            return None
        started = time.perf_counter()
        picture = render_latex(latex, dpi=dpi)
        self.left -= time.perf_counter() - started
        return picture
