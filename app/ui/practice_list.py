"""The practice list: every try of Try it yourself, newest first — how it ended (right, wrong,
revealed), when, and the question — kept in the history. Enter or a double-click opens the question
again, its answer hidden, to try it once more. A view of `Work.attempts`; the questions are shown as plain text.

Signals: chosen(int) — the solve of the attempt the student opened.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from app.store.history import PracticeAttempt
from app.ui.plain import Label, tip
from sandbox.display import display_text

_MARK = {"right": "✓ right", "wrong": "✗ wrong", "revealed": "– revealed"}
_SHOWN_CHARS = 140  # of a question in the list; all of it on hover


def tally_words(tally: dict[str, int]) -> str:
    tried = sum(tally.values())
    return (
        f"{tried} tries: {tally.get('right', 0)} right, {tally.get('wrong', 0)} wrong, "
        f"{tally.get('revealed', 0)} revealed (kept in the history)"
    )


class PracticeList(QDialog):
    chosen = Signal(int)

    def __init__(self, tally: dict[str, int], attempts: list[PracticeAttempt], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Practice")
        self.list = QListWidget()
        self.list.setWordWrap(True)
        for attempt in attempts:
            when = time.strftime("%d %b %H:%M", time.localtime(attempt.created_at))
            question = display_text(attempt.question)
            short = question if len(question) <= _SHOWN_CHARS else question[: _SHOWN_CHARS - 1] + "…"
            item = QListWidgetItem(f"{_MARK.get(attempt.outcome, attempt.outcome)}  {when}\n   {short}")
            item.setToolTip(tip(question))
            if attempt.solve_id is None:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)  # its solve was deleted
            else:
                item.setData(Qt.ItemDataRole.UserRole, attempt.solve_id)
            self.list.addItem(item)
        self.list.setCurrentRow(0)
        buttons = QDialogButtonBox()
        self.open_button = buttons.addButton("Try it again", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.accepted.connect(self._open_current)
        buttons.rejected.connect(self.reject)
        self.list.itemActivated.connect(lambda _item: self._open_current())
        layout = QVBoxLayout(self)
        shown = f"The newest {len(attempts)} are listed. " if len(attempts) < sum(tally.values()) else ""
        said = Label(f"{tally_words(tally)}. {shown}Enter opens a question again.", wrap=True)
        for widget in (said, self.list, buttons):
            layout.addWidget(widget)
        self.resize(560, 420)

    def _open_current(self) -> None:
        item = self.list.currentItem()
        solve_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(solve_id, int):
            self.chosen.emit(solve_id)
            self.accept()
