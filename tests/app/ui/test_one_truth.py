"""What the window shows, exports and keeps in history is one solution: the latest solve, hand
run or reopened entry, never a mix of it and an earlier one (real widgets, real sandbox)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.reasoning import Solution
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import WindowMaker

SOLVED = "```python\nprice = 4\nans = price * 3\nprint(ans)\n```"


def _solved(qtbot: QtBot, make_window: WindowMaker) -> MainWindow:
    window = make_window(ScriptedModel([SOLVED]))
    window.question.setPlainText("Three pens at $4 each: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "$12.00"
    return window


def _run(qtbot: QtBot, window: MainWindow, program: str) -> Solution:
    window.editor.setPlainText(program)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as blocker:
        qtbot.keyClick(window.editor, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    solution = blocker.args[0]
    assert isinstance(solution, Solution)
    return solution


def test_a_failed_run_does_not_keep_the_previous_answer(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = _solved(qtbot, make_window)
    _run(qtbot, window, "ans = 1 / 0")
    assert window.answer.text() == "—"
    assert "ZeroDivisionError" in window.output.toPlainText()
    assert window.output_pane.variables.rowCount() == 0  # the solve's price/ans are gone too


def test_a_run_reads_ans_as_a_solve_does(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.question.setPlainText("tenths")
    solution = _run(qtbot, window, "ans = 0.1 + 0.2")
    assert window.answer.text() == "0.3" == solution.answer  # not 0.30000000000000004


def test_exports_and_history_hold_the_edited_program_and_its_answer(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    window = _solved(qtbot, make_window)
    edited = "price = 5\nans = price * 3\nprint(ans)"
    solution = _run(qtbot, window, edited)
    assert window.answer.text() == "$15.00" and solution.method == "pal, program edited"
    window.export_to(tmp_path / "out.md")
    window.export_to(tmp_path / "out.py")
    markdown, python = (tmp_path / "out.md").read_text(), (tmp_path / "out.py").read_text()
    assert "price = 5" in markdown and "**15**" in markdown and "price = 4" not in markdown
    assert "price = 5" in python and "# Answer:\n# 15\n" in python
    entries = window.controller.history.entries()
    assert [(e.method, e.answer) for e in entries[:2]] == [("pal, program edited", "15"), ("pal", "12")]
    opened = window.controller.history.get(entries[0].id)  # the list reads only what it shows
    assert opened is not None and opened.program == edited


def test_a_reopened_solve_shows_only_its_own_parts_and_exports(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    window = _solved(qtbot, make_window)
    window.trace_program()
    qtbot.waitUntil(lambda: window.output_pane.stepper.slider.maximum() > 0, timeout=30_000)
    window.question.setPlainText("another question")
    _run(qtbot, window, "x = 99\nprint(x)")
    window.close()
    again = make_window(ScriptedModel([]))
    entries = again.controller.history.entries()
    pen_solve = again.controller.history.get(next(e.id for e in entries if e.method == "pal"))  # as a click does
    assert pen_solve is not None
    again.history_panel.reopen.emit(pen_solve.as_solution())
    assert again.answer.text() == "$12.00"
    table = again.output_pane.variables
    names = {item.text() for row in range(table.rowCount()) if (item := table.item(row, 0)) is not None}
    assert names == {"price", "ans"}  # its own variables, not x from the later run
    assert again.output_pane.stepper.slider.maximum() == 0  # no step-through left from before
    again.export_to(tmp_path / "reopened.md")  # was "Solve a question first"
    assert "price = 4" in (tmp_path / "reopened.md").read_text()


def test_pot_without_ans_offers_the_printed_output_with_its_label(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    window = make_window(ScriptedModel(['```python\nprint("5/12")\n```', ""]))  # nor a line `ans =`
    window.method.setCurrentIndex(window.method.findData("pot"))
    window.question.setPlainText("What fraction is left?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    button = window.output_pane.alternative_button
    assert window.answer.text() == "—" and button.isVisible()
    assert "5/12" in button.text() and "PAL's reading" in button.text()
    assert "did not set a variable called ans" in window.status_label.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert window.answer.text() == "5/12" and not button.isVisible()
    window.export_to(tmp_path / "chosen.md")
    text = (tmp_path / "chosen.md").read_text()
    assert "**5/12**" in text and "printed output chosen" in text
