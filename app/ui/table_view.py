"""An answer that is a table: its rows (plain text cells, never markup), a bar chart of the
numbers when the question asked for one, and Export CSV.

Signals: export_requested(), chart_shown() — a chart (or the note that it was not drawn) is in
place. The chart is drawn by `app.ui.charts` on the pane's drawing thread from the capped JSON
values the program returned; no image or code from the child is ever shown.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from app.reasoning.answer_table import AnswerTable
from app.ui.background import Background
from app.ui.charts import bar_chart_png, drawable
from app.ui.picture import Picture
from app.ui.plain import Label
from sandbox.display import display_text

NOT_DRAWN = "The chart is not drawn: a value is too large to draw or not a number."
FAILED = "The chart could not be drawn."


def picture(png: bytes) -> QPixmap | None:
    pixmap = QPixmap()
    return pixmap if pixmap.loadFromData(png, "PNG") else None


class TableView(QWidget):
    export_requested = Signal()
    chart_shown = Signal()

    def __init__(self, drawing: Background, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._drawing = drawing
        self._shown = 0  # which show_table call a chart that arrives belongs to
        self.table = QTableWidget(0, 0)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.note = Label("")
        self.chart = Picture()
        self.export_button = QPushButton("Export table as CSV…")
        layout = QVBoxLayout(self)
        for widget in (self.table, self.note, self.chart, self.export_button):
            layout.addWidget(widget)
        self.export_button.clicked.connect(self.export_requested)
        self.show_table(None, chart=False)

    def show_table(self, table: AnswerTable | None, *, chart: bool) -> None:
        self._shown += 1
        self.table.clear()
        self.table.setRowCount(len(table.rows) if table else 0)
        self.table.setColumnCount(len(table.columns) if table else 0)
        if table is not None:
            self.table.setHorizontalHeaderLabels([display_text(name) for name in table.columns])
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row):
                    self.table.setItem(r, c, QTableWidgetItem("" if cell is None else display_text(str(cell))))
        self._notes = [f"The first {len(table.rows):,} rows are shown."] if table and table.truncated else []
        self.chart.setVisible(False)
        self.export_button.setEnabled(table is not None)
        series = table.series() if table is not None and chart else None
        if series and not drawable(series[1]):
            self._notes.append(NOT_DRAWN)
        elif series:
            shown = self._shown
            self._drawing.submit(
                lambda _report: bar_chart_png(*series),
                on_success=lambda png: self._on_chart(shown, picture(png)),
                on_failure=lambda _error: self._on_chart(shown, None),
                name="chart",
            )
        self._show_notes()

    def _on_chart(self, shown: int, pixmap: QPixmap | None) -> None:
        if shown != self._shown:
            return  # another table has been shown since
        if pixmap is None:
            self._notes.append(FAILED)
            self._show_notes()
        else:
            self.chart.show_picture(pixmap)
            self.chart.setVisible(True)
        self.chart_shown.emit()

    def _show_notes(self) -> None:
        self.note.setText(" ".join(self._notes))
        self.note.setVisible(bool(self._notes))
