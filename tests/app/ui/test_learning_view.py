"""The learning view: step through a program, variables, typeset math, export (real widgets)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QTableWidget
from pytestqt.qtbot import QtBot

from app.ui.background import Background
from app.ui.math_view import Formulas, render_latex
from models.testing import ScriptedModel

from .conftest import WindowMaker

LOOP = "total = 0\nfor i in range(3):\n    total += i\nprint(total)\nans = total\n"


def test_stepper_moves_and_highlights_lines_and_changes(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.editor.setPlainText(LOOP)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        qtbot.keyClick(window.editor, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    stepper = window.stepper
    assert window.tabs.currentWidget() is stepper
    assert stepper.slider.maximum() > 8
    assert window.editor.step_line == 1
    stepper.forward_button.click()
    assert window.editor.step_line == 2
    assert stepper.changed_names() == ["total"]  # total = 0 has just run
    stepper.forward_button.click()
    assert window.editor.step_line == 3 and stepper.changed_names() == ["i"]
    qtbot.keyClick(stepper, Qt.Key.Key_End, Qt.KeyboardModifier.AltModifier)
    assert stepper.step_index == stepper.slider.maximum()
    assert stepper.output.toPlainText() == "3\n"
    assert "leaving line 5" in stepper.position.text()
    stepper.first_button.click()
    assert stepper.output.toPlainText() == ""
    window.tabs.setCurrentWidget(window.output_pane.variables)  # the keys work from any tab
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert window.tabs.currentWidget() is stepper and stepper.step_index == 1


def test_latex_renders_or_falls_back(qtbot: QtBot) -> None:
    pixmap = render_latex(r"\frac{3}{4}")
    assert pixmap is not None and pixmap.width() > 5
    assert render_latex(r"\frac{") is None
    assert render_latex("") is None


@pytest.mark.parametrize("pixels", [12, 24])
def test_a_formula_is_at_least_as_large_as_the_words_around_it(qtbot: QtBot, pixels: int) -> None:
    """Before: typeset at a fixed 110 dpi, a formula stayed 13 px high whatever the system font."""
    label = QLabel()
    qtbot.addWidget(label)
    font = label.font()
    font.setPixelSize(pixels)
    label.setFont(font)
    formulas = Formulas(Background(label), label)
    with qtbot.waitSignal(formulas.typeset, timeout=30_000):
        formulas.show(label, "x = 6", size=1.25, text="x = 6")
    picture = label.pixmap()
    assert picture.devicePixelRatio() == label.devicePixelRatioF()
    height = picture.height() / picture.devicePixelRatio()  # logical pixels, as the words are measured
    assert QFontMetrics(font).capHeight() <= height <= 2 * QFontMetrics(font).height()


def test_sympy_answer_is_typeset_and_quantities_listed(qtbot: QtBot, make_window: WindowMaker) -> None:
    program = "```python\nfrom sympy import Rational\nshare = Rational(3, 4)\npeople = 2\nans = share * people\n```"
    window = make_window(ScriptedModel([program]))
    window.method.setCurrentIndex(window.method.findData("pot"))
    window.question.setPlainText("Three quarters each for two people?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "3/2"
    qtbot.waitUntil(lambda: window.math.isVisibleTo(window) and not window.math.pixmap().isNull(), timeout=30_000)
    rows = {_cell(window.variables, r, 0): _cell(window.variables, r, 1) for r in range(window.variables.rowCount())}
    assert rows == {"ans": "3/2", "share": "3/4", "people": "2"}


def test_export_all_three_formats(qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    window = make_window(ScriptedModel(["```python\n" + LOOP + "```"]))
    window.method.setCurrentIndex(window.method.findData("pal"))
    window.question.setPlainText("Sum of 0, 1 and 2?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.trace_program()
    for suffix in (".md", ".py", ".ipynb"):
        window.export_to(tmp_path / f"solution{suffix}")
    assert "## Step by step" in (tmp_path / "solution.md").read_text()
    assert "# Question:\n# Sum of 0, 1 and 2?\n" in (tmp_path / "solution.py").read_text()
    nbformat.validate(nbformat.read(tmp_path / "solution.ipynb", as_version=4))


def _cell(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None
    return item.text()
