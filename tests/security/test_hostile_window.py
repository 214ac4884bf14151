"""Hostile output through every view of the real window: a vote whose programs print markup,
formula-like and control text (real sandbox), its lanes, samples and Compare; a traced run stepped
through; the worked solution; a table answer with a chart; an equation graph with hostile labels;
the history list and its question box. Every label must be plain text, no tooltip may carry the
markup raw, nothing may raise, and the whole walk must stay within its time budget."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QLabel, QListWidget, QMessageBox, QTableWidget, QTreeWidget, QWidget
from pytestqt.qtbot import QtBot

from app.reasoning.graphs import Curve, Graph, Mark
from app.ui import dialogs
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import make_window  # noqa: F401 -- the fixture
from .hostile import HOSTILE_LINES, MARKER, RICH

BUDGET_S = 30.0  # the whole walk; a frozen view would not come back at all
LINES = repr(list(HOSTILE_LINES))


def _program(answer: str) -> str:
    return (
        f"```python\n# {RICH}\nlines = {LINES}\nfor line in lines:\n    shown = line\n"
        f"label = {RICH!r}\nprint({answer!r})\n```"
    )


def _tooltips(window: QWidget) -> list[str]:
    tips = [widget.toolTip() for widget in window.findChildren(QWidget)]
    for view in window.findChildren(QAbstractItemView):
        if isinstance(view, QListWidget):
            tips += [view.item(i).toolTip() for i in range(view.count())]
        elif isinstance(view, QTableWidget):
            tips += [view.item(r, c).toolTip() for r in range(view.rowCount()) for c in range(view.columnCount())
                     if view.item(r, c) is not None]  # fmt: skip
        elif isinstance(view, QTreeWidget):
            tips += [view.topLevelItem(i).toolTip(0) for i in range(view.topLevelItemCount())]
    return tips


def _assert_plain(window: MainWindow) -> None:
    labels = window.findChildren(QLabel)
    assert labels
    rich = [label.text()[:60] for label in labels if label.textFormat() != Qt.TextFormat.PlainText]
    assert not rich, f"labels that may read markup: {rich}"
    raw = [tip[:80] for tip in _tooltips(window) if "<b>" + MARKER in tip]
    assert not raw, f"tooltips that would render markup: {raw}"


def test_hostile_output_is_shown_as_text_everywhere(qtbot: QtBot, make_window) -> None:  # noqa: F811
    started = time.monotonic()
    answers = [RICH, RICH, "=HYPERLINK(\"x\")", RICH + " " * 5000 + "x", "\x1b]0;t\x07" + RICH]
    window: MainWindow = make_window(ScriptedModel([_program(a) for a in answers] + [_program(RICH)]))
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText(f"How much? {RICH}")
    with qtbot.waitSignal(window.controller.solved, timeout=60_000):
        window.solve()
    pane = window.output_pane
    assert MARKER in pane.full_answer  # the hostile answer really reached the window
    assert any(MARKER in header.text() for header in pane.lanes.headers)
    _assert_plain(window)
    with qtbot.waitSignal(window.controller.ran, timeout=60_000):
        window.trace_program()
    for _ in range(pane.stepper.slider.maximum() + 1):
        pane.stepper.forward_button.click()
    pane.tabs.setCurrentWidget(pane.working)
    pane.show_graph(Graph((0.0, 1.0), (Curve("$\\frac{1}{$" + RICH, (1.0, 1e12)),), (Mark(0.5, 1.0, RICH),), RICH))
    assert pane.graph_pixmap is not None  # drawn, labels as text (mathtext raised on this before)
    window.history_panel.refresh()
    _assert_plain(window)
    assert time.monotonic() - started < BUDGET_S


def test_questions_and_messages_are_plain_text(qtbot: QtBot, monkeypatch) -> None:
    shown: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append(box) or QMessageBox.StandardButton.No)
    parent = QWidget()
    qtbot.addWidget(parent)
    assert dialogs.confirmed(parent, "Delete?", f"Delete “{RICH}” from the history?") is False
    assert dialogs.consent_to_unisolated(parent) is False
    assert [box.textFormat() for box in shown] == [Qt.TextFormat.PlainText] * 2
    assert RICH in shown[0].text()
