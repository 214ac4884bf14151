"""Questions the user answers before something that cannot be undone (No is the default), and the
file dialog of Export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from app.data import READ_SUFFIXES
from app.ui.plain import message_box


def confirmed(parent: QWidget, title: str, text: str) -> bool:
    return _yes(parent, QMessageBox.Icon.Question, title, text)


def consent_to_unisolated(parent: QWidget) -> bool:
    """Whether to run the model's programs on a computer that offers no isolation at all."""
    return _yes(
        parent,
        QMessageBox.Icon.Warning,
        "No isolation",
        "This computer offers no way to isolate programs, so a program written by the model could read "
        "or change your files. Run programs anyway, for this session?",
    )


def _yes(parent: QWidget, icon: QMessageBox.Icon, title: str, text: str) -> bool:
    yes, no = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
    return message_box(parent, icon, title, text, buttons=yes | no, default=no).exec() == yes


def export_path(parent: QWidget) -> Path | None:
    """Where to export the worked solution; the suffix picks the format. None: cancelled."""
    name, _filter = QFileDialog.getSaveFileName(
        parent, "Export the worked solution", str(Path.home() / "solution.md"),
        "Markdown (*.md);;Python (*.py);;Jupyter notebook (*.ipynb)",
    )  # fmt: skip
    return Path(name) if name else None


def data_file_path(parent: QWidget) -> Path | None:
    """A data file to ask about. None: cancelled."""
    suffixes = " ".join(f"*{suffix}" for suffix in READ_SUFFIXES)
    name, _filter = QFileDialog.getOpenFileName(
        parent, "Open a data file", str(Path.home()), f"Data files ({suffixes});;All files (*)"
    )
    return Path(name) if name else None


def csv_path(parent: QWidget) -> Path | None:
    """Where to save an answer's table as CSV. None: cancelled."""
    name, _filter = QFileDialog.getSaveFileName(
        parent, "Export the table", str(Path.home() / "table.csv"), "CSV (*.csv)"
    )
    return Path(name) if name else None
