"""Stepping as a learner needs it: each changed quantity as previous → new, floats without noise
(the raw value on hover), modules and functions out of the quantities unless asked for, and each
step's line explained by its comment (real widgets, real sandbox)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem
from pytestqt.qtbot import QtBot

from models.testing import ScriptedModel

from .conftest import WindowMaker

PROGRAM = (
    "def tenths(x):\n    return round(x * 10)\n# start with a tenth\nprice = 0.1\n# add two tenths\n"
    "price = price + 0.2\nans = tenths(price)"
)


def _rows(table: QTableWidget) -> dict[str, QTableWidgetItem]:
    rows = {}
    for row in range(table.rowCount()):
        name, value = table.item(row, 0), table.item(row, 1)
        assert name is not None and value is not None
        rows[name.text()] = value
    return rows


def test_a_step_shows_what_changed_in_plain_numbers(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.editor.setPlainText(PROGRAM)
    window.trace_program()
    stepper = window.output_pane.stepper
    qtbot.waitUntil(lambda: stepper.slider.maximum() > 0, timeout=30_000)
    at_line = {step.line: index for index, step in reversed(list(enumerate(stepper._steps)))}
    stepper.slider.setValue(at_line[7])  # about to run line 7: line 6 has just changed price
    rows = _rows(stepper.variables)
    assert "tenths" not in rows  # a function is not a quantity
    assert rows["price"].text() == "0.1 → 0.3" and rows["price"].toolTip() == "0.30000000000000004"
    assert window.editor.step_line == 7
    stepper.slider.setValue(at_line[6])
    assert stepper.explanation.text() == "add two tenths"  # the line's comment explains the step
    stepper.show_all.setChecked(True)
    assert "tenths" in _rows(stepper.variables)


def test_stepping_through_the_solves_own_program_adds_nothing_to_the_history(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    window = make_window(ScriptedModel(["```python\ntotal = 4 * 3\nprint(total)\n```"]))
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    listed = window.history_panel.list.count()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as stepped:
        window.trace_program()
    assert window.history_panel.list.count() == listed  # looking is not editing
    assert stepped.args[0].method == "pal" and window.stepper.variables.rowCount() >= 0
    window.editor.setPlainText("total = 4 * 3 + 1\nprint(total)")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as edited:
        window.run_program()
    assert window.history_panel.list.count() == listed + 1
    assert edited.args[0].method == "pal, program edited" and edited.args[0].answer == "13"


def test_stepping_through_a_cross_checks_program_keeps_its_answer_and_support(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: Step through on "Solve for x: 3x + 7 = 25" turned the cross-checked 6
    ("two different methods agree") into the program's raw "[6]" with "one program, not checked"."""
    program = "from sympy import symbols, Eq, solve\nx = symbols('x')\nprint(solve(Eq(3*x + 7, 25), x))"
    window = make_window(ScriptedModel([f"```python\n{program}\n```", "3x = 18, so x = 6.\nAnswer: 6"]))
    window.question_pane.pick_method("mix")
    window.question.setPlainText("Solve for x: 3x + 7 = 25.")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "6" and window.output_pane.lanes.headers[0].text() == "PAL: 6"  # not "[6]"
    support = window.output_pane.votes.text()
    qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=30_000)  # the solve's last bookkeeping
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as stepped:
        window.trace_program()
    assert stepped.args[0].method == "mix" and window.answer.text() == "6"
    assert window.output_pane.votes.text() == support and "two different methods agree" in support
    assert window.stepper.slider.maximum() > 0  # the steps are there to walk through
    window.editor.setPlainText(program.replace("25", "28"))  # an edit is a solve of its own
    qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=30_000)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as edited:
        window.run_program()
    assert edited.args[0].method == "mix, program edited" and "not checked" in window.output_pane.votes.text()


def test_a_plain_run_after_stepping_leaves_no_old_steps_behind(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Before: the ▶ line stayed in the editor, and an export still held the earlier run's steps."""
    window = make_window(ScriptedModel([]))
    window.editor.setPlainText(PROGRAM)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.trace_program()
    stepper = window.output_pane.stepper
    stepper.slider.setValue(3)
    assert window.editor.step_line > 0 and stepper.slider.maximum() > 0
    window.editor.setPlainText("ans = 2 + 2")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    assert window.editor.step_line == 0 and window.work.trace is None
    assert stepper.slider.maximum() == 0 and not stepper.forward_button.isEnabled()


def test_predict_the_next_value_hides_it_until_guessed_and_counts_right_guesses(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    window = make_window(ScriptedModel([]))
    window.editor.setPlainText("boxes = 3\nsold = boxes * 6\nleft = 24 - sold\nprint(left)")
    window.trace_program()
    stepper = window.output_pane.stepper
    qtbot.waitUntil(lambda: stepper.slider.maximum() > 0, timeout=30_000)
    stepper.quiz.setChecked(True)
    stepper.forward_button.click()  # line 1 runs: boxes is about to be shown
    assert _rows(stepper.variables)["boxes"].text() == "?" and stepper.guess.isVisible()
    assert stepper.quiz_line.text() == "What will boxes be after line 1 runs?"
    hint = stepper.guess.fontMetrics().horizontalAdvance(stepper.guess.placeholderText())
    assert stepper.guess.contentsRect().width() > hint  # seen cut at 1366×768
    marked = window.editor.step_line  # the line asked about stays marked (not the next one) until the guess
    assert marked == 1 and stepper.position.text().endswith("guess what it makes, for line 1"), marked
    qtbot.keyClicks(stepper.guess, "3")
    qtbot.keyClick(stepper.guess, Qt.Key.Key_Return)
    assert (
        _rows(stepper.variables)["boxes"].text() == "3" and stepper.quiz_line.text() == "Right. 1 of 1 guesses right."
    )
    assert window.editor.step_line == 2 and "about to run line 2" in stepper.position.text()
    stepper.forward_button.click()
    assert _rows(stepper.variables)["sold"].text() == "?"
    qtbot.keyClicks(stepper.guess, "9")
    qtbot.keyClick(stepper.guess, Qt.Key.Key_Return)
    assert stepper.quiz_line.text() == "Not quite: it is 18. 1 of 2 guesses right."
    stepper.back_button.click()  # stepping back asks nothing
    assert not stepper.guess.isVisible() and "?" not in [v.text() for v in _rows(stepper.variables).values()]
