"""Hostile output through every view of the real window: a vote whose programs print markup,
formula-like and control text (real sandbox), its lanes, samples and Compare; a traced run stepped
through; the worked solution; a table answer with a chart; an equation graph with hostile labels;
the history list and its question box. Every label must be plain text, no tooltip may carry the
markup raw, nothing may raise, and the whole walk must stay within its time budget."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QWidget,
)
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
    """Every tooltip of every widget, and of every item of the list, table and tree views."""
    tips = [widget.toolTip() for widget in window.findChildren(QWidget)]
    for view in window.findChildren(QAbstractItemView):
        items: list[QListWidgetItem | QTableWidgetItem | None] = []
        if isinstance(view, QListWidget):
            items += [view.item(i) for i in range(view.count())]
        elif isinstance(view, QTableWidget):
            items += [view.item(r, c) for r in range(view.rowCount()) for c in range(view.columnCount())]
        elif isinstance(view, QTreeWidget):
            tips += [item.toolTip(0) for i in range(view.topLevelItemCount()) if (item := view.topLevelItem(i))]
        tips += [item.toolTip() for item in items if item is not None]
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
    answers = [RICH, RICH, '=HYPERLINK("x")', RICH + " " * 5000 + "x", "\x1b]0;t\x07" + RICH]
    window: MainWindow = make_window(ScriptedModel([_program(a) for a in answers] + [_program(RICH)]))
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText(f"How much? {RICH}")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    pane = window.output_pane
    assert MARKER in pane.full_answer  # the hostile answer really reached the window
    assert any(MARKER in header.text() for header in pane.lanes.headers)
    _assert_plain(window)
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.trace_program()
    for _ in range(pane.stepper.slider.maximum() + 1):
        pane.stepper.forward_button.click()
    pane.tabs.setCurrentWidget(pane.working)
    with qtbot.waitSignal(pane.graph_shown, timeout=30_000):
        pane.show_graph(Graph((0.0, 1.0), (Curve("$\\frac{1}{$" + RICH, (1.0, 1e12)),), (Mark(0.5, 1.0, RICH),), RICH))
    assert pane.graph_pixmap is not None  # drawn, labels as text (mathtext raised on this before)
    window.history_panel.refresh()
    _assert_plain(window)
    assert time.monotonic() - started < BUDGET_S


def test_questions_and_messages_are_plain_text(qtbot: QtBot, monkeypatch) -> None:
    shown: list[QMessageBox] = []

    def answer_no(box: QMessageBox) -> QMessageBox.StandardButton:
        shown.append(box)
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "exec", answer_no)
    parent = QWidget()
    qtbot.addWidget(parent)
    assert dialogs.confirmed(parent, "Delete?", f"Delete “{RICH}” from the history?") is False
    assert dialogs.consent_to_unisolated(parent) is False
    assert [box.textFormat() for box in shown] == [Qt.TextFormat.PlainText] * 2
    assert RICH in shown[0].text()


def test_the_working_tab_never_typesets_on_the_ui_thread(qtbot: QtBot) -> None:
    """Seventy slow formulas (a program's long names): before, each was typeset on the UI thread
    as the tab was drawn (≈ 0.9 s each at up to 2,000 characters; 0.6 s for the first formula of a
    session alone). Now the tab is drawn with the formulas as text at once, the first
    MAX_PER_VIEW are typeset on the drawing thread and replace their text, the rest stay text with
    a note, and a redraw shows every picture already made at once."""
    from app.reasoning.working import WorkingStep
    from app.ui.background import Background
    from app.ui.math_view import MAX_PER_VIEW
    from app.ui.working_view import WorkingView

    drawing = Background()
    view = WorkingView(drawing)
    qtbot.addWidget(view)
    steps = [WorkingStep(n, f"step {n}", "\\mathrm{" + "w" * 200 + f"{n}" + "}", "") for n in range(70)]
    started = time.monotonic()
    view.show_steps(steps)
    assert time.monotonic() - started < 0.5, "the tab waited for typesetting"
    assert any("too many to typeset" in label.text() for label in _labels(view))

    def pictures() -> int:
        return sum(1 for label in _labels(view) if not label.pixmap().isNull())

    qtbot.waitUntil(lambda: pictures() == MAX_PER_VIEW, timeout=120_000)
    started = time.monotonic()
    view.show_steps(steps)  # a reveal or a redraw: the pictures made before are shown at once
    assert pictures() == MAX_PER_VIEW and time.monotonic() - started < 0.5
    drawing.shutdown()


def _labels(view: QWidget) -> list[QLabel]:
    area = view.findChild(QScrollArea)
    shown = area.widget() if area is not None else None
    return shown.findChildren(QLabel) if shown is not None else []


def test_a_wide_chart_or_graph_never_widens_the_pane(qtbot: QtBot) -> None:
    """A 550-pixel chart in a 300-pixel pane asked for 550 pixels (the window grew past a 1366 px
    screen with a table answer); now it is shown scaled to the pane, proportions kept."""
    from PySide6.QtGui import QPixmap

    from app.ui.picture import Picture

    holder = QWidget()
    qtbot.addWidget(holder)
    picture = Picture(holder)
    wide = QPixmap(550, 320)
    wide.fill(Qt.GlobalColor.darkBlue)
    holder.resize(1000, 500)
    holder.show()
    qtbot.waitExposed(holder)
    picture.show_picture(wide)
    assert picture.sizeHint().width() <= 1 and picture.minimumSizeHint().width() <= 1
    picture.resize(300, 400)
    shown = picture.pixmap()
    assert shown.width() == 300 and abs(shown.height() - 320 * 300 / 550) <= 1
    picture.resize(800, 400)
    assert picture.pixmap().width() == 550  # never blown up past its own size
    picture.setText("The graph could not be drawn.")
    assert picture.pixmap().isNull() and picture.text() == "The graph could not be drawn."
