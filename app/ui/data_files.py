"""The data file the window's questions are about: opened with Ctrl+O, a button or a drop (read
off the UI thread by the controller), shown in the Question pane, removed with a click.

Signals: status(str), changed() (the open file changed: the autosave records its path).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QUrl, Signal
from PySide6.QtWidgets import QWidget

from app.data import OTHER_FORMATS, READ_SUFFIXES, DataSet
from app.reasoning.methods import DATA_DEFAULT, DATA_METHODS, Method
from app.ui.controller import SolveController
from app.ui.dialogs import data_file_path
from app.ui.events import DataOpened, DataRefused
from app.ui.question_pane import QuestionPane

_SUFFIXES = {*READ_SUFFIXES, *OTHER_FORMATS}  # the other formats are opened to say what to do with them


class DataFiles(QObject):
    status = Signal(str)
    changed = Signal()

    def __init__(self, controller: SolveController, pane: QuestionPane, window: QWidget) -> None:
        super().__init__(window)
        self._controller, self._pane, self._window = controller, pane, window
        self.data: DataSet | None = None
        self.path: Path | None = None
        self._method_before: str | None = None  # the method a file replaced (chain of thought cannot read it)
        controller.events.subscribe(DataOpened, self._on_data_opened)
        controller.events.subscribe(DataRefused, self._on_data_refused)
        pane.open_data_button.clicked.connect(self.choose)
        pane.remove_data_button.clicked.connect(self.remove)

    def choose(self) -> None:
        """Ctrl+O: pick a data file to ask questions about."""
        path = data_file_path(self._window)
        if path is not None:
            self.open(path)

    def open(self, path: Path) -> None:
        self._controller.open_data(path)

    def remove(self) -> None:
        self.data = self.path = None
        self._pane.show_data(None)
        self.changed.emit()
        said = "The data file was removed; questions are answered without it."
        if self._method_before is not None and self._pane.method_name() == DATA_DEFAULT:  # not changed since
            self._pane.pick_method(self._method_before)
            said += f" Method set back to {self._pane.method.currentText()}."
        self._method_before = None
        self.status.emit(said)

    def method_without(self, method: str) -> str:
        """The method questions without the file get: the one it replaced, unless changed since."""
        return self._method_before if self._method_before is not None and method == DATA_DEFAULT else method

    @staticmethod
    def dropped(urls: list[QUrl]) -> Path | None:
        """The one local data file among dropped items, if that is what was dropped."""
        paths = [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]
        return paths[0] if len(paths) == 1 and paths[0].suffix.lower() in _SUFFIXES else None

    def _on_data_refused(self, refused: DataRefused) -> None:
        self.status.emit(f"That data file cannot be used: {refused.message}")

    def _on_data_opened(self, opened: DataOpened) -> None:
        data = self.data = opened.data
        self.path = opened.path
        self._pane.show_data(data)
        self.changed.emit()
        said = f"Opened {data.summary}. Ask a question about it; the program will read every row."
        if Method.parse(self._pane.method_name()).base not in DATA_METHODS:  # chain of thought cannot read it
            self._method_before = self._pane.method_name()
            self._pane.pick_method(DATA_DEFAULT)
            said += f" Method set to {self._pane.method.currentText()}: only programs can read the data."
        self.status.emit(said)
