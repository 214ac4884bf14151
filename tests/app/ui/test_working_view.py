"""The Working tab after a solve, a hand run and a reopen, and the worked solution in exports
(real widgets, real sandbox)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from models.testing import ScriptedModel

from .conftest import WindowMaker

BAGELS = (
    "```python\n# Olivia starts with $23\nmoney_initial = 23\n# she buys 5 bagels at $3 each\nbagels = 5\n"
    "bagel_cost = 3\nmoney_spent = bagels * bagel_cost\nprint(money_initial - money_spent)\n```"
)


def test_the_working_is_shown_typeset_and_exported(qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    window = make_window(ScriptedModel([BAGELS]))
    window.question.setPlainText(
        "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"
    )
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    view = window.output_pane.working
    assert [step.text for step in view.steps][:2] == ["Olivia starts with $23", "She buys 5 bagels at $3 each"]
    box = view.area.widget()
    assert box is not None

    def typeset() -> list[QLabel]:
        return [label for label in box.findChildren(QLabel) if not label.pixmap().isNull()]

    qtbot.waitUntil(lambda: len(typeset()) == len(view.steps), timeout=30_000)  # each step's mathematics as an image
    window.export_to(tmp_path / "w.md")
    text = (tmp_path / "w.md").read_text()
    assert (
        "## Working" in text
        and r"$\mathrm{money\ spent} = \mathrm{bagels} \times \mathrm{bagel\ cost} = 5 \times 3" in text
    )
    window.editor.setPlainText("apples = 2\npears = 3\nans = apples * pears")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    assert [step.latex for step in view.steps][
        -1
    ] == r"\mathrm{ans} = \mathrm{apples} \times \mathrm{pears} = 2 \times 3 = 6"


def test_try_it_yourself_hides_the_answer_and_checks_an_attempt(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([BAGELS]))
    window.question_pane.try_yourself.setChecked(True)
    window.question.setPlainText("Olivia has $23. She bought five bagels for $3 each. How much is left?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    view = window.output_pane.working
    assert view.trying and view.shown == 0 and "8" not in window.answer.text()
    assert "8" not in window.output.toPlainText()
    view.attempt.setText("$7")
    view.check_button.click()
    assert view.verdict.text().startswith("Not yet") and view.shown == 1  # the first step to compare with
    view.reveal_next()
    assert view.shown == 2
    view.attempt.setText("8.0")  # graded as the evaluator grades: 8 = 8.0 = $8
    view.check_button.click()
    assert view.verdict.text().startswith("Right") and view.shown == len(view.steps)
    view.show_all_button.click()
    assert window.answer.text() == "$8.00" and not view.trying


def test_trying_hides_the_answer_in_the_history_too_and_step_through_keeps_what_was_revealed(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    window = make_window(ScriptedModel([BAGELS]))
    window.question_pane.try_yourself.setChecked(True)
    window.question.setPlainText("Olivia has $23. She bought five bagels for $3 each. How much is left?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    listed = window.history_panel.list.item(0).text()
    assert "→ 8" not in listed and "hidden while you try it" in listed
    view = window.output_pane.working
    assert view.verdict.text().startswith("Solved at ")
    view.reveal_next()
    view.reveal_next()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.trace_program()  # step through the same program: the two revealed steps stay
    assert view.trying and view.shown == 2
    view.show_all_button.click()
    assert "→ 8" in window.history_panel.list.item(0).text()
