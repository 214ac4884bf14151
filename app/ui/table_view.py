"""An answer that is a table: its rows (plain text cells, never markup), a bar chart drawn here
from the numbers when the question asked for one, and Export CSV; and the graph of an equation.

Signals: export_requested(). The chart is drawn by the app with matplotlib from the capped JSON
values the program returned; no image or code from the child is ever shown. Labels are drawn as
literal text (matplotlib's mathtext would parse a program's "$…$" and raise on the UI thread),
values beyond what an axis can show are not drawn, and a drawing that fails leaves a message.
"""

from __future__ import annotations

import io
import logging
import math
import warnings
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from app.reasoning.answer_table import AnswerTable
from app.reasoning.graphs import Graph
from app.ui.plain import Label
from sandbox.display import display_text

_CHART_BARS = 40
DRAWABLE = 1e15  # larger magnitudes (or NaN, ±inf) make matplotlib's axes overflow
NOT_DRAWN = "The chart is not drawn: a value is too large to draw or not a number."
FAILED = "The chart could not be drawn."
logger = logging.getLogger(__name__)


def drawable(values: list[float]) -> bool:
    return all(math.isfinite(v) and abs(v) <= DRAWABLE for v in values)


class TableView(QWidget):
    export_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 0)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.note = Label("")
        self.chart = Label("")
        self.export_button = QPushButton("Export table as CSV…")
        layout = QVBoxLayout(self)
        for widget in (self.table, self.note, self.chart, self.export_button):
            layout.addWidget(widget)
        self.export_button.clicked.connect(self.export_requested)
        self.show_table(None, chart=False)

    def show_table(self, table: AnswerTable | None, *, chart: bool) -> None:
        self.table.clear()
        self.table.setRowCount(len(table.rows) if table else 0)
        self.table.setColumnCount(len(table.columns) if table else 0)
        if table is not None:
            self.table.setHorizontalHeaderLabels([display_text(name) for name in table.columns])
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row):
                    self.table.setItem(r, c, QTableWidgetItem("" if cell is None else display_text(str(cell))))
        notes = [f"The first {len(table.rows):,} rows are shown."] if table and table.truncated else []
        series = table.series() if table is not None and chart else None
        pixmap = bar_chart(*series) if series and drawable(series[1]) else None
        if series and pixmap is None:
            notes.append(NOT_DRAWN if not drawable(series[1]) else FAILED)
        self.note.setText(" ".join(notes))
        self.note.setVisible(bool(notes))
        self.chart.setVisible(pixmap is not None)
        if pixmap is not None:
            self.chart.setPixmap(pixmap)
        self.export_button.setEnabled(table is not None)


def drawn(draw: Callable[[], Any]) -> QPixmap | None:
    """The figure `draw` builds, as a picture: labels as literal text (no mathtext), matplotlib's
    warnings silenced; None (logged) when matplotlib fails — a message, never a crash."""
    import matplotlib

    try:
        with matplotlib.rc_context({"text.parse_math": False}), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _pixmap(draw())
    except Exception:
        logger.warning("a chart could not be drawn", exc_info=True)
        return None


def equation_graph(graph: Graph) -> QPixmap | None:
    """Both sides of the equation as curves, the solutions marked and labelled where they meet."""
    return drawn(lambda: _equation_figure(graph))


def _equation_figure(graph: Graph) -> Any:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5.5, 3.4), dpi=100, layout="tight")
    axes = figure.add_subplot()
    for curve in graph.curves:
        ys = [float("nan") if y is None else y for y in curve.y]
        axes.plot(graph.x, ys, label=display_text(curve.label))
    for mark in graph.marks:
        axes.plot([mark.x], [mark.y], "o", color="#b00020")
        axes.annotate(display_text(mark.label), (mark.x, mark.y), textcoords="offset points", xytext=(6, 8))
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.set_xlabel(display_text(graph.symbol))
    axes.legend(loc="best", fontsize="small")
    return figure


def _pixmap(figure: Any) -> QPixmap | None:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    pixmap = QPixmap()
    return pixmap if pixmap.loadFromData(buffer.getvalue(), "PNG") else None


def bar_chart(labels: list[str], values: list[float], title: str) -> QPixmap | None:
    """A bar chart of `values` by `labels` (at most 40 bars), drawn offline by matplotlib."""
    return drawn(lambda: _bar_figure(labels, values, title))


def _bar_figure(labels: list[str], values: list[float], title: str) -> Any:
    from matplotlib.figure import Figure  # loaded on first use: it takes a moment

    figure = Figure(figsize=(5.5, 3.2), dpi=100, layout="tight")
    axes = figure.add_subplot()
    shown = [display_text(label)[:24] for label in labels[:_CHART_BARS]]
    axes.bar(range(len(shown)), values[:_CHART_BARS], color="#3b6ea5")
    axes.set_xticks(range(len(shown)), shown, rotation=45 if len(shown) > 6 else 0, ha="right")
    axes.set_title(display_text(title)[:60])
    return figure
