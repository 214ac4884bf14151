"""Charts of a table answer and graphs of an equation, drawn by matplotlib as PNG bytes.

No Qt here: the drawing runs on a view's drawing thread (matplotlib's first import alone took
0.9 s of the UI thread), and the view turns the bytes into a picture. Every text is drawn as
literal text — `parse_math=False`, so a program's "$…$" is never parsed as mathtext (which raised
ValueError or RecursionError on labels such as "$\\frac{1}{$") — and values beyond what an axis
can show are refused before drawing (`drawable`).
"""

from __future__ import annotations

import io
import math
import warnings
from typing import Any

from app.reasoning.graphs import Graph
from sandbox.display import display_text

CHART_BARS = 40
DRAWABLE = 1e15  # larger magnitudes (or NaN, ±inf) make matplotlib's axes overflow


def drawable(values: list[float]) -> bool:
    return all(math.isfinite(v) and abs(v) <= DRAWABLE for v in values)


def bar_chart_png(labels: list[str], values: list[float], title: str) -> bytes:
    """A bar chart of `values` by `labels` (at most 40 bars)."""
    from matplotlib.figure import Figure  # loaded on first use, on the drawing thread

    figure = Figure(figsize=(5.5, 3.2), dpi=100, layout="tight")
    axes = figure.add_subplot()
    shown = [display_text(label)[:24] for label in labels[:CHART_BARS]]
    axes.bar(range(len(shown)), values[:CHART_BARS], color="#3b6ea5")
    axes.set_xticks(range(len(shown)), shown, rotation=45 if len(shown) > 6 else 0, ha="right", parse_math=False)
    axes.set_title(display_text(title)[:60], parse_math=False)
    return _png(figure)


def equation_graph_png(graph: Graph) -> bytes:
    """Both sides of the equation as curves, the solutions marked and labelled where they meet."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.5, 3.4), dpi=100, layout="tight")
    axes = figure.add_subplot()
    for curve in graph.curves:
        ys = [float("nan") if y is None else y for y in curve.y]
        axes.plot(graph.x, ys, label=display_text(curve.label))
    for mark in graph.marks:
        axes.plot([mark.x], [mark.y], "o", color="#b00020")
        axes.annotate(
            display_text(mark.label), (mark.x, mark.y), textcoords="offset points", xytext=(6, 8), parse_math=False
        )
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.set_xlabel(display_text(graph.symbol), parse_math=False)
    for text in axes.legend(loc="best", fontsize="small").get_texts():
        text.set_parse_math(False)
    return _png(figure)


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():  # a layout that does not fit is drawn as it is, not reported
        warnings.simplefilter("ignore")
        figure.savefig(buffer, format="png")
    return buffer.getvalue()
