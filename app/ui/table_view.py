"""An answer that is a table: its rows (plain text cells, never markup), a bar chart drawn here
from the numbers when the question asked for one, and Export CSV; and the graph of an equation.

Signals: export_requested(). The chart is drawn by the app with matplotlib from the capped JSON
values the program returned; no image or code from the child is ever shown.
"""

from __future__ import annotations

import io
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from app.reasoning.answer_table import AnswerTable
from app.reasoning.graphs import Graph
from app.ui.plain import Label
from sandbox.display import display_text

_CHART_BARS = 40


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
        self.note.setText(f"The first {len(table.rows):,} rows are shown." if table and table.truncated else "")
        self.note.setVisible(bool(table and table.truncated))
        series = table.series() if table is not None and chart else None
        pixmap = bar_chart(*series) if series else None
        self.chart.setVisible(pixmap is not None)
        if pixmap is not None:
            self.chart.setPixmap(pixmap)
        self.export_button.setEnabled(table is not None)


def equation_graph(graph: Graph) -> QPixmap | None:
    """Both sides of the equation as curves, the solutions marked and labelled where they meet."""
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
    return _pixmap(figure)


def _pixmap(figure: Any) -> QPixmap | None:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    pixmap = QPixmap()
    return pixmap if pixmap.loadFromData(buffer.getvalue(), "PNG") else None


def bar_chart(labels: list[str], values: list[float], title: str) -> QPixmap | None:
    """A bar chart of `values` by `labels` (at most 40 bars), drawn offline by matplotlib."""
    from matplotlib.figure import Figure  # loaded on first use: it takes a moment

    figure = Figure(figsize=(5.5, 3.2), dpi=100, layout="tight")
    axes = figure.add_subplot()
    shown = [display_text(label)[:24] for label in labels[:_CHART_BARS]]
    axes.bar(range(len(shown)), values[:_CHART_BARS], color="#3b6ea5")
    axes.set_xticks(range(len(shown)), shown, rotation=45 if len(shown) > 6 else 0, ha="right")
    axes.set_title(display_text(title)[:60])
    return _pixmap(figure)
