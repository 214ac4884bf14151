"""Export… (the current solve as Markdown, Python or a notebook) and the Table tab's Export CSV:
the shown solve from `Work`, written by `app.export` so that opening the file runs nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from app.export import export_text
from app.reasoning.answer_table import table_of
from app.ui.dialogs import csv_path, export_path
from app.ui.output_pane import OutputPane
from app.ui.work import Work


class Exporter(QObject):
    def __init__(self, window: QWidget, work: Work, pane: OutputPane, say: Callable[[str], None]) -> None:
        super().__init__(window)
        self._window, self._work, self._pane, self._say = window, work, pane, say
        pane.export_button.clicked.connect(self._on_export_clicked)
        pane.table_view.export_requested.connect(self._on_table_export_requested)

    def export_to(self, path: Path) -> None:
        """Write the current solve as Markdown, Python or a notebook, chosen by the file's suffix."""
        if self._work.solution is None:
            raise ValueError("nothing to export yet")
        text = export_text(self._work.solution, path.suffix, self._work.trace, self._work.checked)
        graph = self._pane.graph_pixmap
        if graph is not None and path.suffix == ".md":  # the figure beside the Markdown, linked from it
            picture = path.with_name(f"{path.stem}-graph.png")
            graph.save(str(picture))
            text += f"\n![Graph of the equation]({picture.name})\n"
        path.write_text(text, encoding="utf-8")

    def _on_export_clicked(self) -> None:
        if self._work.solution is None:
            self._say("Solve a question first; then it can be exported.")
            return
        path = export_path(self._window)
        if path is not None:
            self.export_to(path)
            self._say(f"Exported to {path}")

    def _on_table_export_requested(self) -> None:
        solution = self._work.solution
        table = table_of(solution.variables, solution.answer) if solution else None
        path = csv_path(self._window) if table is not None else None
        if table is not None and path is not None:
            path.write_text(table.to_csv(), encoding="utf-8", newline="")  # the CSV's own line ends
            self._say(f"Exported the table to {path}")
