"""The menu bar: View (the history, the panes' default layout) and Help (the shortcuts)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenuBar, QWidget

from app.ui.window_layout import WindowLayout


class Menus:
    def __init__(
        self, bar: QMenuBar, layout: WindowLayout, history: QWidget, show_keyboard: Callable[[], None]
    ) -> None:
        # The history hides itself where the window would not fit (1366 px at 150 %): the View menu
        # says it is there, and how to bring it back, to someone who never reads the shortcuts.
        self.view = bar.addMenu("&View")
        self.history = self.view.addAction("&History\tCtrl+H")
        self.history.setCheckable(True)
        self.history.toggled.connect(layout.show_history)
        self.view.aboutToShow.connect(lambda: self.history.setChecked(history.isVisible()))
        self.view.addAction("&Reset layout", layout.reset)
        bar.addMenu("&Help").addAction("&Keyboard shortcuts\tF1", show_keyboard)
