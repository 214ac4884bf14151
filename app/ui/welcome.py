"""The first-run welcome: prepares the embedded model with progress and ETA, says in plain words
how well programs are isolated on this computer, and offers a sample question.

Shown beside the main window, never blocking it. Signals: sample_requested(str).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QRect, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.ui.controller import SolveController
from app.ui.events import LoadProgress, SandboxPreparing, SandboxReady
from app.ui.plain import Label

SAMPLE = "A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left?"
_ISOLATION_WORDS = {
    "strong": "Strong: programs the model writes cannot read or change your files, use the network, "
    "or start other programs.",
    "partial": "Partial: some of the protections this computer could offer are missing; programs run "
    "with limits but less shielded.",
    "none": "None: this computer offers no isolation. PAL Studio will ask before running a program.",
    "unavailable": "Unavailable: programs cannot be run on this system.",
}


def is_first_run(marker: Path) -> bool:
    return not marker.exists()


class WelcomeDialog(QDialog):
    sample_requested = Signal(str)

    def __init__(self, marker: Path, parent: QWidget | None = None) -> None:
        """`marker` is the file whose presence says the guide was seen."""
        super().__init__(parent)
        self._marker = marker
        self.setWindowTitle("Welcome to PAL Studio")
        self.setModal(False)
        self._started = time.monotonic()
        self.model_status = Label("Preparing the built-in model…", wrap=True)
        self.progress = QProgressBar()
        self.isolation = Label("Checking how programs are isolated…")
        self.isolation.setWordWrap(True)
        self.sample_button = QPushButton("Try a sample question")
        self.start_button = QPushButton("Start")
        layout = QVBoxLayout(self)
        intro = Label(
            "PAL Studio answers questions that need calculation: a language model on this computer writes a "
            "short Python program, a sandbox runs it, and you see the program, its output and the answer. "
            "Nothing leaves your computer."
        )
        intro.setWordWrap(True)
        for widget in (intro, self.model_status, self.progress, self.isolation, self.sample_button, self.start_button):
            layout.addWidget(widget)
        self.sample_button.clicked.connect(self._on_sample_clicked)
        self.start_button.clicked.connect(self.accept)

    def present(self) -> None:
        """On top of the main window, sized to its text: a readable line length (about 60
        characters, within the screen) and the height of every wrapped line."""
        width = self.fontMetrics().averageCharWidth() * 60 + 40
        screen = self.screen()
        if screen is not None:
            width = min(width, screen.availableGeometry().width() - 40)
        self.setFixedWidth(width)
        self._fit()
        self.show()
        self.raise_()
        self.activateWindow()

    def _fit(self) -> None:
        """The height the texts need at this width (a top-level window does not grow to its
        wrapped labels by itself: the guide's text was cut off); again whenever a text changes."""
        layout = self.layout()
        if layout is None:
            return
        margins = layout.contentsMargins()
        inner = self.width() - margins.left() - margins.right()
        height = margins.top() + margins.bottom() + layout.spacing() * max(layout.count() - 1, 0)
        for index in range(layout.count()):
            item = layout.itemAt(index)
            widget = item.widget() if item is not None else None
            if isinstance(widget, Label) and widget.wordWrap():
                flags = Qt.TextFlag.TextWordWrap | Qt.TextFlag.TextWrapAnywhere
                height += widget.fontMetrics().boundingRect(QRect(0, 0, inner, 100_000), flags, widget.text()).height()
            elif widget is not None and not widget.isHidden():
                height += widget.sizeHint().height()
        self.setFixedHeight(height + 8)

    def on_load_progress(self, progress: LoadProgress) -> None:
        done, total = progress.done, progress.total
        if total <= 0:
            return
        self.progress.setMaximum(1000)
        self.progress.setValue(1000 * done // total)
        elapsed = time.monotonic() - self._started
        remaining = elapsed * (total - done) / done if done else 0.0
        eta = f", about {remaining:.0f} s left" if done < total and elapsed > 1 else ""
        self.model_status.setText(f"Preparing the built-in model: {100 * done // total}%{eta}")
        self._fit()

    def on_model_ready(self, name: str) -> None:
        self.progress.setMaximum(1)
        self.progress.setValue(1)
        self.model_status.setText(f"Model ready: {name}")
        self._fit()

    def on_model_failed(self, message: str) -> None:
        self.model_status.setText(f"The model could not be prepared: {message}")
        self._fit()

    def on_isolation(self, ready: SandboxReady) -> None:
        words = _ISOLATION_WORDS.get(ready.isolation, ready.isolation)
        problem = f" ({ready.problem})" if ready.problem else ""
        self.isolation.setText(f"Isolation of programs — {words}{problem}")
        self._fit()

    def on_preparing(self, preparing: SandboxPreparing) -> None:
        self.isolation.setText(preparing.text)
        self._fit()

    def done(self, result: int) -> None:
        path = self._marker
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("1")
        super().done(result)

    def _on_sample_clicked(self) -> None:
        self.sample_requested.emit(SAMPLE)
        self.accept()


def open_welcome(marker: Path, controller: SolveController, parent: QWidget) -> WelcomeDialog:
    """The guide, shown beside `parent` and following the controller's model and sandbox news."""
    welcome = WelcomeDialog(marker, parent)
    events = controller.events
    events.subscribe(LoadProgress, welcome.on_load_progress, owner=welcome)
    events.subscribe(SandboxReady, welcome.on_isolation, owner=welcome)
    events.subscribe(SandboxPreparing, welcome.on_preparing, owner=welcome)
    controller.model_ready.connect(welcome.on_model_ready)
    controller.model_failed.connect(welcome.on_model_failed)
    # Shown once the event loop runs, after the main window: a guide shown first ends up behind it
    # under a window manager.
    QTimer.singleShot(0, welcome.present)
    return welcome


def when_ready(controller: SolveController, action: Callable[[], None]) -> None:
    """`action` now if the model is loaded, else once it is (once)."""
    if controller.model is not None:
        action()
        return

    def once(_name: str) -> None:
        controller.model_ready.disconnect(once)
        action()

    controller.model_ready.connect(once)
