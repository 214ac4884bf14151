"""The Working tab after a solve, a hand run and a reopen, and the worked solution in exports
(real widgets, real sandbox)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.reasoning.practice import Variant, make_variants
from app.reasoning.working import WorkingStep
from app.ui import controller as controller_module
from app.ui.controller import NO_ANSWER_TO_CHECK, NO_PROGRAM_TO_VARY, NOTHING_SOLVED
from app.ui.status_view import PRACTICE_SHOWN
from models.testing import ScriptedModel
from models.types import Generation, GenerationRequest

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
    assert view.verdict.text().startswith("Ready at ")  # not "Solved at": a reopened question was not solved then
    view.reveal_next()
    view.reveal_next()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.trace_program()  # step through the same program: the two revealed steps stay
    assert view.trying and view.shown == 2
    view.show_all_button.click()
    assert "→ 8" in window.history_panel.list.item(0).text()


def test_check_my_working_marks_each_line_from_the_keyboard_and_is_exported(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    window = make_window(ScriptedModel([BAGELS]))
    window.question.setPlainText(
        "Olivia has $23. She bought five bagels for $3 each. How much money does she have left?"
    )
    window.question_pane.pick_method("pal")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    view = window.output_pane.working
    view.check_working_button.click()  # the box opens, focused
    qtbot.keyClicks(view.my_working, "5 x 3 = 15")
    qtbot.keyClick(view.my_working, Qt.Key.Key_Return)  # Enter: a new line, not a check
    qtbot.keyClicks(view.my_working, "$23 - $15 = $9")
    assert view.my_working.toPlainText() == "5 x 3 = 15\n$23 - $15 = $9" and window.work.checked is None
    with qtbot.waitSignal(window.work.checked_changed, timeout=30_000):
        qtbot.keyClick(view.my_working, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    shown = view.my_verdicts.text().splitlines()
    assert view.my_verdicts.alignment() & Qt.AlignmentFlag.AlignTop  # its first line shows where the pane is short
    assert shown[0].startswith("✓ 1. 5 x 3 = 15 — right")
    assert shown[1] == "✗ 2. $23 - $15 = $9 — arithmetic slip: that is 8, not 9"
    assert shown[-1] == "Look again at line 2."
    path = tmp_path / "solve.md"
    window.export_to(path)
    exported = path.read_text(encoding="utf-8")
    assert "## Your working, checked" in exported and "✗ \\$23 - \\$15 = \\$9 — arithmetic slip" in exported
    window.controller.model = ScriptedModel([BAGELS])
    with qtbot.waitSignal(window.work.checked_changed, timeout=30_000):
        window.solve()
    assert not view.my_verdicts.isVisible()  # checked against the last solution, not this one


def test_a_working_stays_with_its_question_and_comes_back_with_it(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the window: a student's working for the last question stayed under the next one."""
    window = make_window(ScriptedModel([BAGELS, "```python\nprint(6 * 7)\n```", "```python\nprint(6 * 7)\n```"]))
    window.question_pane.pick_method("pal")
    view = window.output_pane.working
    view.open_my_working()
    qtbot.keyClicks(view.my_working, "5 x 3 = 15")  # written before solving: it is this question's
    window.question.setPlainText("Olivia has $23. She bought five bagels for $3 each. How much money is left?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert view.my_working.toPlainText() == "5 x 3 = 15"
    qtbot.keyClick(view.my_working, Qt.Key.Key_Return)
    qtbot.keyClicks(view.my_working, "23 - 15 = 8")
    window.question.setPlainText("How many eggs are in 6 rows of 7?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert view.my_working.toPlainText() == ""  # put aside, not checked against 42
    qtbot.keyClicks(view.my_working, "6 x 7 = 42")
    listed = window.history_panel.list
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        listed.itemActivated.emit(listed.item(1))  # the bagels again, from the history
    assert view.my_working.toPlainText() == "5 x 3 = 15\n23 - 15 = 8" and not view.my_working.isHidden()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        listed.itemActivated.emit(listed.item(0))
    assert view.my_working.toPlainText() == "6 x 7 = 42"
    window.question.setPlainText("How many eggs are there in 6 rows of 7?")  # the question mended: the same problem
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert view.my_working.toPlainText() == "6 x 7 = 42"


def test_a_cross_check_gives_the_working_tab_back_to_a_student_who_was_on_it(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: each cross-check left its columns in front, three clicks from Working at 150 %."""
    window = make_window(ScriptedModel(["```python\nprint(6 * 7)\n```", "6 rows of 7 is 42.\nAnswer: 42"] * 2))
    window.question_pane.pick_method("mix")
    pane = window.output_pane
    window.question.setPlainText("How many eggs are in 6 rows of 7?")
    pane.tabs.setCurrentWidget(pane.working)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    solution = window.work.solution
    assert solution is not None and solution.confidence.confident, solution
    assert pane.tabs.currentWidget() is pane.working
    pane.tabs.setCurrentWidget(pane.output)
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert pane.tabs.currentWidget() is pane.vote_tab  # the columns stay in front for one who was elsewhere


def test_an_edited_question_keeps_its_working_and_a_practice_one_starts_empty(make_window: WindowMaker) -> None:
    view = make_window(ScriptedModel([])).output_pane.working
    asked = "Tom has 5 apples and buys {} more. How many apples does he have?"
    view.working_for(asked.format(7))
    view.my_working.setPlainText("5 + 7 = 12")
    view.working_for(asked.format(8))  # a number changed: the same problem
    assert view.my_working.toPlainText() == "5 + 7 = 12"
    view.working_for(asked.format(9), fresh=True)  # a practice question like it
    assert view.my_working.toPlainText() == ""
    view.working_for(asked.format(8))
    assert view.my_working.toPlainText() == "5 + 7 = 12"
    view.working_for("Olivia has $23. She bought five bagels for $3 each. How much money does she have left?")
    assert view.my_working.toPlainText() == ""


def test_another_one_like_this_opens_a_checked_variant_hidden_and_tallies_the_tries(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """The window asks for a variant; the (scripted) chain of thought confirms the answer the
    re-run program gives, so it is offered: its question in the box, its answer hidden, each try
    kept in the history's tally."""
    window = make_window(ScriptedModel([BAGELS]))
    window.question.setPlainText("Olivia has $23. She bought 5 bagels for $3 each. How much money does she have left?")
    window.question_pane.pick_method("pal")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    solved = window.work.solution
    assert solved is not None
    first: list[Variant] = []
    confirm = lambda question: "8" if question == solved.question else None  # noqa: E731
    seed = window.controller.history.newest_id()  # the window's first seed: on from the newest solve saved
    make_variants(solved, window.controller.sandbox, confirm, 1, seed=seed, on_variant=first.append)
    expected = first[0]  # the candidate the window tries first
    # chain of thought confirms the original's 8 (a PAL solve has no vote), then the variant's answer
    window.controller.model = ScriptedModel(["Answer: 8", f"Working it out.\nAnswer: {expected.answer}"])
    window.question_pane.pick_method("mix")  # the user's method for the next solve
    window.output_pane.working.my_working.setPlainText("5 x 3 = 15")  # for the original
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        qtbot.mouseClick(window.output_pane.working.another_button, Qt.MouseButton.LeftButton)
    view = window.output_pane.working
    assert view.my_working.toPlainText() == ""  # the variant (most words the same) is worked from nothing
    assert window.work.origin == "practice" and window.question.toPlainText() == expected.question
    assert window.question_pane.method_name() == "mix"  # not switched to the first, Fast, by "practice"
    assert window.output_pane.answer.text() == "Hidden: try it first" and view.trying
    assert window.editor.toPlainText() == expected.program
    shown = window.output_pane.votes.text()  # seen in the window: "Vote of PAL and chain of thought: 1 ×2"
    assert shown == "Checked: two different methods agree: a program and reasoning in words", shown
    assert window.output_pane.variables.rowCount() == 0  # the program's values hold the answer
    qtbot.keyClicks(view.attempt, "1")
    qtbot.keyClick(view.attempt, Qt.Key.Key_Return)
    view.attempt.setText(expected.answer)
    qtbot.keyClick(view.attempt, Qt.Key.Key_Return)
    assert view.tally.text() == "Practice: 1 of 2 right…"
    assert view.tally.toolTip() == "2 tries: 1 right, 1 wrong, 0 revealed (kept in the history): click for the list"
    assert window.output_pane.answer.text() == f"${float(expected.answer):.2f}"  # right: the answer is shown too
    assert window.status_label.text() == PRACTICE_SHOWN  # no longer "its answer is … hidden"
    assert window.output_pane.variables.rowCount() > 0
    assert window.work.solution is not None and window.work.solution.confidence.level == "cot+pal"
    assert window.controller.history.practice_tally() == {"right": 1, "wrong": 1, "revealed": 0}
    assert window.history_panel.list.item(0).text().count(expected.question[:30]) == 1
    window.controller.model = ScriptedModel(["Answer: 1"] * 3)  # chain of thought never agrees
    with qtbot.waitSignal(window.controller.failed, timeout=60_000) as failed:
        window.controller.another_one()
    assert str(failed.args[0]).startswith("No question like this one could be checked")
    window.controller.model = ScriptedModel(["Still thinking about it. " * 40], chunk_size=1, chunk_delay_s=0.01)
    with qtbot.assertNotEmitted(window.controller.failed, wait=500):
        window.controller.another_one()
        qtbot.waitUntil(lambda: window.controller.is_busy, timeout=5_000)
        window.controller.cancel()  # Esc: no new question, and no error for it
        qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=30_000)


def test_the_practice_list_shows_each_try_and_opens_its_question_again_after_a_restart(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Issue 31: the window showed only a tally of the tries; and the first variant after a
    restart was last session's first again (each session's seeds counted from 0)."""
    question = "Olivia has $23. She bought 5 bagels for $3 each. How much money does she have left?"
    asked: list[str] = []
    for session in range(2):  # a second window on the same history: the app restarted
        window = make_window(ScriptedModel([BAGELS]))
        window.question.setPlainText(question)
        window.question_pane.pick_method("pal")
        with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
            window.solve()
        window.controller.model = _Agreeing()
        with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
            window.controller.another_one()
        asked.append(window.question.toPlainText())
        view = window.output_pane.working
        view.attempt.setText("0")
        view.check_button.click()  # wrong
        view.show_all_button.click()  # then revealed: two tries a session
        if session == 0:
            window.close()
    assert asked[0] != asked[1] and question not in asked
    assert view.tally.text() == "Practice: 0 of 4 right…"
    shown = view.show_practice_list()
    rows = [shown.list.item(i).text() for i in range(shown.list.count())]
    assert [row.split()[1] for row in rows] == ["revealed", "wrong", "revealed", "wrong"]
    assert rows[2].endswith(asked[0][:40] + ("…" if len(asked[0]) > 139 else asked[0][40:]))
    shown.list.setCurrentRow(2)  # last session's variant, to try again
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        qtbot.keyClick(shown.list, Qt.Key.Key_Return)
    assert window.question.toPlainText() == asked[0] and window.work.origin == "practice"
    assert window.output_pane.answer.text() == "Hidden: try it first" and view.trying


class _Agreeing(ScriptedModel):
    """Chain of thought that reads the bagel question it is asked, whatever its numbers, and
    answers it right: it confirms the original and every variant."""

    def __init__(self) -> None:
        super().__init__([])

    def generate(self, request: GenerationRequest) -> Iterator[str | Generation]:
        asked = re.findall(r"has \$(\d+)\. She bought (\d+) bagels for \$(\d+) each", request.as_text())
        money, bagels, price = (int(n) for n in asked[-1])
        self._replies.append(f"Answer: {money - bagels * price}")
        return super().generate(request)


def test_a_formula_wider_than_the_pane_scrolls_sideways_and_is_never_cut(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: a loop's step ended "total sum = total sum ·", its result cut off at
    the pane's edge. The Working tab scrolls instead; the window keeps its width."""
    window = make_window(ScriptedModel([]))
    window.tabs.setCurrentWidget(window.output_pane.working)
    before = window.width()
    view = window.output_pane.working
    wide = r"\mathrm{for\ each}\ \mathrm{i}:\ " + r" + ".join(rf"\mathrm{{total\ sum\ {n}}}" for n in range(9))
    with qtbot.waitSignal(view.formulas.typeset, timeout=30_000):
        view.show_steps([WorkingStep(1, "A long loop:", wide, "")])
    qtbot.waitUntil(lambda: view.area.horizontalScrollBar().maximum() > 0, timeout=5_000)
    box = view.area.widget()
    assert box is not None
    formula = box.findChildren(QLabel)[1]
    assert not formula.pixmap().isNull() and formula.width() >= formula.pixmap().deviceIndependentSize().width()
    assert window.width() == before


def test_checks_that_need_an_answer_or_a_program_are_off_and_say_why(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the window: Check my working after a cancelled cross-check said "Something went
    wrong: Solve the question first" of a question just solved, and "Checking your working…" stayed."""
    window = make_window(ScriptedModel(["```python\nprint(1 / 0)\n```"]))
    view = window.output_pane.working
    assert not view.check_working_button.isEnabled() and view.check_working_button.toolTip() == NOTHING_SOLVED
    window.question_pane.pick_method("pal")
    window.question.setPlainText("What is one divided by nothing?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()  # the program fails: no answer
    assert not view.check_working_button.isEnabled() and view.check_working_button.toolTip() == NO_ANSWER_TO_CHECK
    view.open_my_working()  # opened before: the button is off now
    qtbot.keyClicks(view.my_working, "1 / 0 = 0")
    qtbot.keyClick(view.my_working, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert view.my_verdicts.text() == NO_ANSWER_TO_CHECK and window.work.checked is None
    window.controller.model = ScriptedModel(["Half of 10 is 5.\nAnswer: 5"])
    window.question_pane.pick_method("cot")
    window.question.setPlainText("What is half of 10?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()  # an answer in words: checkable, but no program to vary
    assert view.check_working_button.isEnabled() and view.check_working_button.toolTip().startswith("Each line")
    assert not view.another_button.isEnabled() and view.another_button.toolTip() == NO_PROGRAM_TO_VARY

    def broken(*_args: object) -> None:
        raise RuntimeError("the sandbox stopped")

    monkeypatch.setattr(controller_module, "check_working", broken)
    view.my_working.setPlainText("10 / 2 = 5")
    with qtbot.waitSignal(window.work.checked_changed, timeout=30_000):
        view.check_working_button.click()
    assert not view.my_verdicts.isVisible()  # not "Checking your working…" for good
    assert "the sandbox stopped" in window.status.message.text()
