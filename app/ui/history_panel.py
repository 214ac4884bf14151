"""The history sidebar: search, browse, reopen and delete past solves.

Signals: reopen(object: Solution), the past solve as the window shows any solve. Reads from the
controller's `History`; owns no state of its own beyond what it shows. While a student tries a
question themselves (`Work.hiding`), its answers are not listed either, until revealed.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.reasoning.short_answer import shown_answer
from app.reasoning.tables import without_table
from app.store.history import History, HistoryEntry
from app.ui.dialogs import confirmed
from app.ui.plain import heading, tip
from app.ui.work import Work

# Words beside the marks, and no tick: "answered" says a program gave an answer, not that it is right.
_MARK = {"answered": "● answered", "running": "… running", "cancelled": "– cancelled", "interrupted": "⚠ interrupted"}


class HistoryPanel(QWidget):
    reopen = Signal(object)

    def __init__(self, history: History, work: Work, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._history = history
        self.search = QLineEdit(placeholderText="Search past solves")
        self.list = QListWidget()
        self.list.setWordWrap(True)  # a question wraps to the pane's width instead of running off it
        # Each entry's height follows the pane's width: laid out once, a narrowed pane's wrapped
        # entries overlapped and a widened one's left tall empty gaps between them.
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        # Wrapped at the pane's width, never scrolled sideways: one unbreakable answer ("abab…" × 40)
        # made the list as wide as it, and every other entry then showed tall gaps below it.
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setMinimumWidth(180)
        self.delete_button = QPushButton("Delete")
        layout = QVBoxLayout(self)
        for widget in (heading("History"), self.search, self.list, self.delete_button):
            layout.addWidget(widget)
        self.search.textChanged.connect(self._on_search_text_changed)
        self.list.itemActivated.connect(self._on_item_activated)
        self.list.itemClicked.connect(self._on_item_activated)
        self.delete_button.clicked.connect(self._on_delete_clicked)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.list, self._on_delete_clicked)
        self._hidden_question: str | None = None
        work.solution_changed.connect(lambda shown: self.hide_answers_for(shown.question if work.hiding else None))
        work.revealed.connect(lambda: self.hide_answers_for(None))
        self.refresh()

    def focus_search(self) -> None:
        self.activateWindow()  # where it floats in a window of its own (app.ui.window_layout)
        self.search.setFocus()
        self.search.selectAll()

    def hide_answers_for(self, question: str | None) -> None:
        """While a student tries `question` themselves, its answer is not in the list either."""
        self._hidden_question = question.strip() if question else None
        self.refresh()

    def refresh(self) -> None:
        self.list.clear()
        entries = self._history.entries(self.search.text())
        if not entries and self.search.text().strip():
            none = QListWidgetItem(f"No past solve matches “{self.search.text().strip()}”.")
            none.setFlags(Qt.ItemFlag.NoItemFlags)  # a note, not a solve: it cannot be opened or deleted
            self.list.addItem(none)
        for entry in entries:
            when = time.strftime("%d %b %H:%M", time.localtime(entry.created_at))
            mark = _MARK.get(entry.status, "✗ failed")
            answer = f" → {_short(shown_answer(entry.answer))}" if entry.answer else ""
            if answer and self._hidden_question is not None and entry.question.strip() == self._hidden_question:
                answer = " → (hidden while you try it)"
            asked, rows = without_table(entry.question)
            question = _short(asked, 120) + (" (with a pasted table)" if rows else "")
            item = QListWidgetItem(f"{mark} {question}{answer}\n   {entry.method}, {when}")
            item.setToolTip(tip(entry.question))
            item.setData(Qt.ItemDataRole.UserRole, entry.id)
            self.list.addItem(item)

    def _on_search_text_changed(self, _text: str) -> None:
        self.refresh()

    def _on_item_activated(self, item: QListWidgetItem) -> None:
        solve_id = item.data(Qt.ItemDataRole.UserRole)
        if not isinstance(solve_id, int):
            return  # the "no matches" note
        entry: HistoryEntry | None = self._history.get(solve_id)
        if entry is not None:
            self.reopen.emit(entry.as_solution())

    def _on_delete_clicked(self) -> None:
        item = self.list.currentItem()
        if item is None or not isinstance(item.data(Qt.ItemDataRole.UserRole), int):
            return
        title = item.text().splitlines()[0][:80]
        if confirmed(self, "Delete this solve?", f"Delete “{title}” from the history? This cannot be undone."):
            self._history.delete(int(item.data(Qt.ItemDataRole.UserRole)))
            self.refresh()


def _short(text: str, chars: int = 80) -> str:
    """The start of a long text, cut where the list shows it (the whole is in the reopened solve;
    a stored answer's "… [455 more characters]" comes far past the cut)."""
    return text if len(text) <= chars else text[: chars - 1].rstrip("…") + "…"
