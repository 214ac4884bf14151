"""Start the desktop app, or render it offscreen to a PNG (`--screenshot`)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.ui.main_window import MainWindow
from models.embedded import ensure_embedded
from models.local import LocalModel, ModelSettings
from models.types import LanguageModel


def embedded_model(progress: object) -> LanguageModel:
    """The default model factory: assemble (first run) and load the embedded model."""
    path = ensure_embedded(progress=progress)  # type: ignore[arg-type]
    return LocalModel(ModelSettings(path))


def run(*, screenshot: Path | None = None, question: str | None = None, solve: bool = False) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("PAL Studio")
    app.setApplicationName("PAL Studio")
    window = MainWindow(embedded_model)
    if question:
        window.question.setPlainText(question)
    window.show()
    if screenshot is not None:
        window.reset_layout()  # the same picture whatever the user's saved layout
        _capture_when_done(window, screenshot, solve=solve and bool(question))
    status = int(app.exec())
    close = getattr(window.controller.model, "close", None)
    if callable(close):
        close()
    return status


def _capture_when_done(window: MainWindow, path: Path, *, solve: bool) -> None:
    def capture() -> None:
        window.grab().save(str(path))
        window.close()

    def later() -> None:
        QTimer.singleShot(300, capture)

    if solve:
        window.controller.model_ready.connect(lambda _name: window.solve())
        window.controller.solved.connect(lambda _solution: later())
    else:
        window.controller.model_ready.connect(lambda _name: later())
    window.controller.model_failed.connect(lambda _message: later())
