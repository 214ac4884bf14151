"""Where the window sits and how its panes share it: a default that fits the screen (1366×768
laptops, 150 % scaling), and the user's own layout remembered between starts — but never one that
would leave the window off a smaller screen."""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

from app.ui.history_panel import HistoryPanel

# The default window: room for the panes on a laptop, inside the screen (1366×768 is common).
DEFAULT_SIZE = (1320, 740)
_SCREEN_MARGIN = 40
_PANE_SHARES = (0.14, 0.24, 0.31, 0.31)  # history, question, program, answer


class WindowLayout:
    def __init__(self, window: QMainWindow, splitter: QSplitter, history: HistoryPanel, store: QSettings) -> None:
        self._window, self._splitter, self._history, self._store = window, splitter, history, store
        self.restored = False  # a saved layout was applied

    def reset(self) -> None:
        """The default size, shrunk to the screen and centred on it; the program and answer get the room."""
        window = self._window
        if self._history.parent() is not self._splitter:  # it floated (`show_history`): back beside the panes
            self._splitter.insertWidget(0, self._history)
        screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        if window.minimumSizeHint().width() > screen.width():  # e.g. 1366 px at 150 %: 910 px to fill
            self._history.setVisible(False)  # Ctrl+H or Ctrl+F bring it back
            layout = window.layout()
            if layout is not None:
                layout.activate()  # the smaller minimum applies to the resize below
        width = min(DEFAULT_SIZE[0], screen.width() - _SCREEN_MARGIN)
        height = min(DEFAULT_SIZE[1], screen.height() - _SCREEN_MARGIN)
        window.resize(width, height)
        window.move(screen.x() + (screen.width() - width) // 2, screen.y() + (screen.height() - height) // 2)
        self._splitter.setSizes([round(width * share) for share in _PANE_SHARES])

    def toggle_history(self) -> None:
        """Ctrl+H: hide the history for more room, or show it again."""
        self.show_history(not self._history.isVisible())

    def search_history(self) -> None:
        """Ctrl+F: the history's search box (the history is shown first if it was hidden)."""
        self.show_history(True)
        self._history.focus_search()

    def show_history(self, shown: bool) -> None:
        """Show or hide the history. Where the window has no room for it beside the panes (1366 px
        at 150 %: it would push the window past the screen's edge) it opens in a small window of its
        own over the main window's left edge."""
        history, window = self._history, self._window
        if shown and not history.isVisible() and history.parent() is self._splitter:
            screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
            needed = window.minimumSizeHint().width() + history.minimumSizeHint().width() + self._splitter.handleWidth()
            if needed > screen.width():
                history.setParent(window, Qt.WindowType.Tool)
                history.setWindowTitle("History")
                frame = window.geometry()
                history.setGeometry(frame.x(), frame.y(), max(history.sizeHint().width(), 300), frame.height() * 3 // 4)
        history.setVisible(shown)

    def shown(self) -> None:
        """The window is on screen for the first time: without a saved layout, fit it again — its
        widgets' sizes are only final once shown (at 150 % the unshown window measured 1,061 px
        wide and opened past a 910 px screen; shown, it needs 859)."""
        window = self._window
        screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        if not self.restored or window.width() > screen.width() or window.height() > screen.height():
            self.reset()

    def restore(self) -> None:
        """The layout saved at the last close, if it still fits this screen."""
        window = self._window
        geometry, sizes = self._store.value("window/geometry"), self._store.value(self._splitter_key())
        self.restored = geometry is not None
        if geometry is not None:
            window.restoreGeometry(geometry)
            screen = (window.screen() or QGuiApplication.primaryScreen()).availableGeometry()
            # A geometry saved on a bigger screen (or another scaling) must not leave the window off this one.
            too_big = window.width() > screen.width() or window.height() > screen.height()
            if too_big or not screen.intersects(window.geometry()):
                self.reset()
        if sizes is not None:
            self._splitter.restoreState(sizes)

    def save(self) -> None:
        self._store.setValue("window/geometry", self._window.saveGeometry())
        self._store.setValue(self._splitter_key(), self._splitter.saveState())
        self._store.sync()

    def _splitter_key(self) -> str:
        return f"window/splitter-{self._splitter.count()}"  # a layout with other panes starts afresh
