"""Typeset math for sympy results: LaTeX rendered offline by matplotlib's mathtext."""

from __future__ import annotations

import io

from PySide6.QtGui import QPixmap


def render_latex(latex: str, *, dpi: int = 140) -> QPixmap | None:
    """The formula as an image, or None when mathtext cannot typeset it (the caller shows text)."""
    if not latex.strip() or len(latex) > 2000:
        return None
    from matplotlib import mathtext  # loaded on first use: it takes a moment

    buffer = io.BytesIO()
    try:
        mathtext.math_to_image(f"${latex}$", buffer, dpi=dpi, format="png")
    except (ValueError, RuntimeError):
        return None
    pixmap = QPixmap()
    return pixmap if pixmap.loadFromData(buffer.getvalue(), "PNG") else None
