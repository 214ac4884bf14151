"""A vote in the window: its solves are written side by side in named columns ("Program k of n",
"Chain of thought"), each listed with its answer as it runs while the tally grows; at the end the
agreeing ones are marked and each program opens in the editor with a click, to run or step (real
widgets, real sandbox). The mixed votes run on a model whose batches do not pay (gain=1.0): one
solve at a time, then the second round; PoT and the chains in one batch: tests/app/reasoning/test_rounds.py."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.reasoning.events import FirstAnswer, LaneFinished, LaneStreamed
from app.ui.events import Events
from app.ui.lanes_view import LanesView
from app.ui.main_window import MainWindow
from app.ui.output_pane import OutputPane
from app.ui.work import Work
from models.testing import ScriptedModel

from .conftest import WindowMaker, on_event

TWELVE = "```python\nprice = 4\nprint(price * 3)\n```"
ELEVEN = "```python\nprint(11)\n```"


def test_a_votes_programs_arrive_and_open_one_by_one(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([TWELVE, ELEVEN, "```python\nprint(1/0)\n```", TWELVE, ELEVEN]))
    window.question_pane.pick_method("sc-pal")
    pane = window.output_pane
    listed: list[str] = []
    tallies: list[str] = []
    shown_tabs: list[object] = []

    def finished(_finished: LaneFinished) -> None:
        listed.append(pane.samples.item(pane.samples.count() - 1).text())
        tallies.append(pane.votes.text())
        shown_tabs.append(pane.tabs.currentWidget())

    on_event(window, LaneFinished, finished)
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert listed[:3] == ["Program 1 of 5: 12", "Program 2 of 5: 11", "Program 3 of 5: failed"]
    assert tallies[:3] == ["Vote so far: 12 ×1", "Vote so far: 12 ×1, 11 ×1", "Vote so far: 12 ×1, 11 ×1"]
    assert [h.text() for h in pane.lanes.headers][:3] == listed[:3]  # each column says how its solve ended
    assert "price = 4" in pane.lanes.texts[0].toPlainText() and "print(11)" in pane.lanes.texts[1].toPlainText()
    assert all(tab is pane.vote_tab for tab in shown_tabs)  # the columns are in view while they fill
    samples = window.output_pane.samples
    texts = [samples.item(i).text() for i in range(samples.count())]
    assert texts == [
        "Program 1 of 5: 12 — agrees with the answer",
        "Program 2 of 5: 11",
        "Program 3 of 5: failed",
        "Program 4 of 5: 12 — agrees with the answer",
        "Program 5 of 5: 11",
    ]
    assert window.answer.text() == "$12.00" and "12 ×2, 11 ×2" in window.output_pane.votes.text()
    assert window.speed_label.text().startswith("5 programs, ")  # the vote's rate, not one sequence's
    samples.itemClicked.emit(samples.item(1))
    assert window.editor.toPlainText() == "print(11)"
    assert "Program 2 of 5 is in the editor" in window.status_label.text()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    assert window.answer.text() == "$11.00" and samples.count() == 5  # a hand run keeps the vote's list


def test_an_answer_by_chain_of_thought_says_so_and_why(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel(["```python\nans = 7 * 8\n```", "7 times 8 is 56, nearest is (C).\nAnswer: C"]))
    window.question_pane.pick_method("pot+finish")
    window.question.setPlainText("What is 7 times 8? Answer Choices: (A) 54 (B) 58 (C) 64 (D) 72")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert window.answer.text() == "C"
    label = window.output_pane.votes.text()
    assert "No program gave this answer" in label
    assert "Why: ans = 56 is not one of the options ((A) 54 (B) 58 (C) 64 (D) 72)" in label


def _solve_mixed(qtbot: QtBot, window: MainWindow, model: ScriptedModel) -> None:
    window.controller.model = model
    window.question_pane.pick_method("mix")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()


def test_answers_the_vote_did_not_count_are_not_called_failed(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the window: "7/12 ×2; 3 failed" where one chain failed and two said 7 for the share
    of a pizza left (a whole number, not the fraction asked for: not counted)."""
    replies = ["```python\nprint(7 / 12)\n```", "Answer: 7", "```python\nans = 7 / 12\n```", "no answer", "Answer: 7"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    window = make_window(model)
    window.question_pane.pick_method("mix")
    window.question.setPlainText("Eine Pizza hat 12 Stücke. Tom isst 5 Stücke. Welcher Anteil der Pizza bleibt übrig?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert window.answer.text() == "7/12"
    assert ": 7/12 ×2; 2 not counted, 1 failed\n" in window.output_pane.votes.text()


def test_a_mixed_vote_names_each_method_and_its_support(qtbot: QtBot, make_window: WindowMaker) -> None:
    replies = [TWELVE, "12 in all.\nAnswer: 11", "```python\nans = 12\n```", "Answer: 12", "Answer: 12"]
    model = ScriptedModel(replies, parallel=8, gain=1.0)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    assert model.batches == [1, 1, 1, 2]  # PAL, chain of thought, PoT where the two disagree, two chains to decide
    samples = window.output_pane.samples
    texts = [samples.item(i).text() for i in range(samples.count())]
    assert texts[:3] == ["PAL: 12 — agrees with the answer", "Chain of thought: 11", "PoT: 12 — agrees with the answer"]
    assert texts[3:] == [f"Chain of thought sample {n} of 2: 12 — agrees with the answer" for n in (1, 2)]
    label = window.output_pane.votes.text()
    assert "Vote of chain of thought, PAL, PoT and 2 more chains of thought: 12 ×4, 11 ×1; 0 failed" in label
    assert "Checked: the methods disagreed, so the question was reasoned again: four or more answers agree" in label
    assert window.output_pane.votes.toolTip().startswith(
        "4 of 5 answers agree, PAL and PoT among them. Answers checked this way were right 18 of 19 times (95 %)"
    )
    assert window.speed_label.text().startswith("5 methods, ")
    shown = window.editor.toPlainText()
    samples.itemClicked.emit(samples.item(1))
    assert window.editor.toPlainText() == shown  # chain of thought has no program to open
    samples.itemClicked.emit(samples.item(2))
    assert window.editor.toPlainText() == "ans = 12"


def test_a_slipped_chain_of_thought_shows_its_answer_redone(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Its arithmetic slipped (3 × 4 = 11), so PoT is not asked; redone in the sandbox it is PAL's
    12, and the vote and its support say so."""
    model = ScriptedModel([TWELVE, "Three pens: 3 * 4 = 11.\nAnswer: 11"], parallel=8, gain=1.0)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    samples = window.output_pane.samples
    texts = [samples.item(i).text() for i in range(samples.count())]
    assert texts == [
        "PAL: 12 — agrees with the answer",
        "Chain of thought: 11; its arithmetic redone: 12 — agrees with the answer",
    ]
    label = window.output_pane.votes.text()
    assert "once its arithmetic slip is corrected — compare them" in label
    assert "chain of thought, redone, agrees" in window.output_pane.votes.toolTip()


def test_weak_support_opens_the_leading_answers_side_by_side(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel([ELEVEN, "Four threes are 12.\nAnswer: 12", "```python\nans = 10\n```"], parallel=8, gain=1.0)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    compare = window.output_pane.compare
    assert window.output_pane.tabs.currentWidget() is compare  # three answers tied: look before trusting
    assert [h.text() for h in compare.headers] == ["12 — 1 vote; chain of thought:", "11 — 1 vote; PAL:"]
    assert [t.toPlainText() for t in compare.texts] == ["Four threes are 12.\nAnswer: 12", "print(11)"]
    wrap = QPlainTextEdit.LineWrapMode
    assert [t.lineWrapMode() for t in compare.texts] == [wrap.WidgetWidth, wrap.WidgetWidth]  # both wrap: issue 29
    _solve_mixed(qtbot, window, ScriptedModel([TWELVE, "Answer: 12"], parallel=8, gain=1.0))
    assert window.output_pane.tabs.currentWidget() is not compare and not compare.texts[0].isVisible()


def test_a_mixed_vote_writes_pal_first_and_says_what_the_other_columns_wait_for(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """PAL's column fills first (its answer is the first on screen); chain of thought's says it
    waits to check it, PoT's that it runs only if they disagree; then each heading gets its answer."""
    reasoning = "Three pens, four dollars each: 3 times 4 is 11.\nAnswer: 11"
    chains = ["So 12.\nAnswer: 12", "So 11.\nAnswer: 11"]
    model = ScriptedModel([TWELVE, reasoning, "```python\nans = 12\n```", *chains], parallel=8, gain=1.0, chunk_size=4)
    window = make_window(model)
    pane = window.output_pane
    at_first_finish: list[list[str]] = []
    on_event(window, LaneFinished, lambda _f: at_first_finish.append([t.placeholderText() for t in pane.lanes.texts]))
    _solve_mixed(qtbot, window, model)
    assert at_first_finish[0][1:] == ["Waits for the first answer, then checks it", "Runs only if the others disagree"]
    assert [h.text() for h in pane.lanes.headers] == [
        "PAL: 12", "Chain of thought: 11", "PoT: 12",
        "Chain of thought sample 1 of 2: 12", "Chain of thought sample 2 of 2: 11",
    ]  # fmt: skip
    shown = [t.toPlainText().rstrip("\n") for t in pane.lanes.texts]
    assert shown == ["price = 4\nprint(price * 3)", reasoning, "ans = 12", *chains]  # programs without their fences
    window.question_pane.pick_method("pal")
    window.question.setPlainText("Three pens at $4: how much?")
    window.controller.model = ScriptedModel([TWELVE])
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert not pane.lanes.isVisible() and pane.lanes.texts == []  # one solve: no columns


def test_a_batched_vote_writes_its_columns_side_by_side(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Every column of a batch grows before any solve has run."""
    model = ScriptedModel([TWELVE] * 5, parallel=8, gain=1.0, chunk_size=4)
    window = make_window(model)
    pane = window.output_pane
    lengths_at_first_finish: list[list[int]] = []
    on_event(
        window,
        LaneFinished,
        lambda _f: lengths_at_first_finish.append([len(t.toPlainText()) for t in pane.lanes.texts]),
    )
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert model.batches == [5] and all(length > 0 for length in lengths_at_first_finish[0])  # written together


def test_a_tie_won_by_chain_of_thought_leaves_no_losing_program_in_the_editor(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    model = ScriptedModel([ELEVEN, "Four threes are 12.\nAnswer: 12", "```python\nans = 10\n```"], parallel=8, gain=1.0)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    assert window.answer.text() == "$12.00"
    assert window.editor.toPlainText() == ""  # PoT's ans = 10 lost the vote; it is in the list, not the editor
    assert "No program gave this answer" in window.output_pane.votes.text()


def test_a_vote_that_takes_turns_says_which_columns_wait_and_why(qtbot: QtBot, make_window: WindowMaker) -> None:
    """A long question whose prompts the context cannot hold together: the column decoded later
    says it waits for room while the others are written, and the answer says how it was made."""
    model = ScriptedModel([TWELVE] * 5, parallel=8, gain=1.0, holds=2)
    window = make_window(model)
    lanes = window.output_pane.lanes
    placeholders: list[list[str]] = []
    on_event(window, LaneFinished, lambda _f: placeholders.append([t.placeholderText() for t in lanes.texts]))
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert placeholders[0] == ["Reading the question…"] * 2 + ["Waiting for room in the model's context…"] * 3
    assert window.answer.text() == "$12.00"
    assert "decoded in 3 turns" in window.output_pane.votes.text()


def test_a_cancelled_vote_says_cancelled_in_its_columns(qtbot: QtBot, make_window: WindowMaker) -> None:
    slow = "```python\nimport time\ntime.sleep(20)\nprint(12)\n```"
    window = make_window(ScriptedModel([TWELVE, slow, slow, slow, slow]))
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText("Three pens at $4: how much?")
    finished: list[int] = []
    on_event(window, LaneFinished, lambda done: finished.append(done.lane))
    window.solve()
    qtbot.waitUntil(lambda: len(finished) >= 1, timeout=30_000)
    with qtbot.waitSignal(window.controller.busy, timeout=30_000, check_params_cb=lambda busy: not busy):
        window.cancel()
    headers = [header.text() for header in window.output_pane.lanes.headers]
    assert headers[0] == "Program 1 of 5: 12"
    assert all(text.endswith(": cancelled") for text in headers[1:]), headers


def test_a_cross_check_cancelled_while_checking_keeps_what_each_method_said(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: Esc while PoT checked a dispute emptied the editor and said "no answers;
    2 not counted, 1 failed" (and "cancelled — cancelled"), where PAL had said 80, chain of thought 70."""
    slow_pot = "```python\nimport time\ntime.sleep(20)\nans = 80\n```"
    window = make_window(ScriptedModel(["```python\nprint(80)\n```", "Answer: 70", slow_pot]))
    window.question_pane.pick_method("mix")
    window.question.setPlainText("Gretchen has 110 coins, 30 more gold than silver. How many gold coins?")
    finished: list[int] = []
    on_event(window, LaneFinished, lambda done: finished.append(done.lane))
    window.solve()
    qtbot.waitUntil(lambda: 1 in finished, timeout=30_000)
    with qtbot.waitSignal(window.controller.busy, timeout=30_000, check_params_cb=lambda busy: not busy):
        window.cancel()
    tally = window.output_pane.votes.text()
    assert "70 ×1, 80 ×1; 0 failed, 1 cancelled" in tally, tally
    assert "Cancelled before the vote ended" in tally and "The first answer shown" not in tally
    assert window.editor.toPlainText() == "print(80)"  # PAL's program, to run or edit, not to repair
    assert window.output.toPlainText().startswith("80") and not window.program_pane.repair_button.isEnabled()
    assert window.status_label.text().startswith("cancelled (") and "— cancelled" not in window.status_label.text()
    steps = window.output_pane.working.steps  # PAL's program worked through: its result is not the answer
    assert [step.text for step in steps] == ["This program's result, not the answer:"], steps
    working = window.output_pane.working  # nothing to check a student's working against
    assert not working.check_working_button.isEnabled() and not working.another_button.isEnabled()


def test_a_votes_phase_is_the_votes_own(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(ScriptedModel([TWELVE, ELEVEN, TWELVE, TWELVE, ELEVEN]))
    window.question_pane.pick_method("sc-pal")
    phases: list[str] = []
    monkeypatch.setattr(window.status.ticker, "set_phase", phases.append)  # every phase, as it is set
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    during = phases[phases.index("5 programs being written…") :]
    assert "5 programs being written… 1 of 5 done" in during
    assert not any(text.startswith(("Writing the program", "Running the program")) for text in during), during


def test_the_status_bar_shows_the_running_solves_own_speed(make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    for lane in range(30):
        window.controller.events.publish(LaneStreamed(lane % 3, "x"))
    window.status._first_token_at -= 2.0  # as if these 30 tokens came in two seconds
    window.status._on_tick("3 methods working… 3 s")
    assert window.status_label.text() == "3 methods working… 3 s · 15 tokens/s"
    window.controller.busy.emit(True)  # the next work counts its own tokens
    window.status._on_tick("Writing the program… 1 s")
    assert window.status_label.text() == "Writing the program… 1 s"


def test_the_first_answer_shows_at_once_marked_checking_and_the_vote_replaces_it(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """PAL's answer is on screen as soon as its program has run, marked, while chain of thought
    and PoT check it; once chain of thought disagrees the mark says "disputed"; the vote's answer replaces
    it and says the first one was overturned."""
    slow = "Counting the pens one by one. " * 40 + "\nAnswer: 14"
    model = ScriptedModel(
        ["```python\nprint(41)\n```", slow, "```python\nans = 14\n```"],
        parallel=8,
        gain=1.0,
        chunk_size=8,
        chunk_delay_s=0.002,
    )
    window = make_window(model)
    window.question_pane.pick_method("mix")
    pane = window.output_pane
    seen: list[tuple[str, str]] = []
    on_event(window, FirstAnswer, lambda _first: seen.append((pane.answer.text(), pane.votes.text())))
    headers: list[str] = []
    on_event(window, LaneFinished, lambda _done: headers.append(pane.answer.text()))
    window.question.setPlainText("Pens at 3 for $4: 27 pens from $50, change?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert seen == [("$41.00  (checking…)", "First answer, from PAL: the other methods are still checking it")]
    assert headers[:2] == ["$41.00  (checking…)", "$41.00  (disputed…)"]
    assert window.answer.text() == "$14.00"
    assert "The first answer shown, 41 (PAL), was only a first answer: the vote changed it" in pane.votes.text()
    assert window.tabs.currentWidget() is pane.compare  # the support is weak: the answers side by side
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        qtbot.keyClick(window.editor, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert window.tabs.currentWidget() is pane.stepper  # seen at 150 %: Step left Compare in front


def test_a_solve_the_vote_did_not_need_says_so_in_its_column(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel(["```python\nprint(12)\n```", "Answer: 12"], parallel=8, gain=1.0, chunk_size=4)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    headers = [h.text() for h in window.output_pane.lanes.headers]
    assert headers == ["PAL: 12", "Chain of thought: 12", "PoT: not needed, the others agree"]


def test_a_chain_decoded_but_not_counted_does_not_claim_the_others_agree(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: a third chain decoded beside PoT, not counted (two were enough), said
    "not needed, the others agree" while the chains counted said 7 against PAL's 7/12."""
    replies = ["```python\nprint(13)\n```", "Answer: 12", "```python\nans = 13\n```", *["Answer: 13"] * 2, "Answer: 12"]
    model = ScriptedModel(replies, parallel=8, gain=2.4, chunk_size=4)  # batches pay: the chains decode with PoT
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    headers = [h.text() for h in window.output_pane.lanes.headers]
    assert headers[-1] == "Chain of thought sample 3 of 3: not counted, the vote needed fewer", headers
    assert model.batches == [2, 4]  # a gain of 2.4 pairs PAL and chain of thought too


def test_trying_it_yourself_keeps_every_methods_answer_out_of_sight_until_revealed(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Issue 31: while the student tries a voted question, the columns, the Programs list, the
    tally, Compare and Output did say the answer."""
    reasoning = "Four threes are 12.\nAnswer: 12"
    replies = [TWELVE, reasoning.replace("12", "11"), "```python\nans = 12\n```", reasoning, reasoning]
    model = ScriptedModel(replies, parallel=8, gain=1.0, chunk_size=4)
    window = make_window(model)
    window.question_pane.try_yourself.setChecked(True)
    pane = window.output_pane
    during: list[str] = []  # while chain of thought checks PAL's answer
    on_event(window, LaneFinished, lambda _f: during.append(pane.output.toPlainText() + str(pane.variables.rowCount())))
    _solve_mixed(qtbot, window, model)
    # PAL's printed 12 was there, and its values (a lane may finish before its program has run: nothing to hide yet)
    assert "Hidden while you try it yourself.0" in during and not any("12" in seen for seen in during), during
    chains = [f"Chain of thought sample {n} of 2" for n in (1, 2)]
    assert [h.text() for h in pane.lanes.headers] == [
        f"{name}: done" for name in ["PAL", "Chain of thought", "PoT", *chains]
    ]
    assert pane.lanes.texts[1].toPlainText() == "" and pane.lanes.texts[0].toPlainText().startswith("price = 4")
    listed = [pane.samples.item(i).text() for i in range(pane.samples.count())]
    assert not any("12" in text or "11" in text for text in listed), listed
    assert "12" not in pane.votes.text() and "12" not in pane.output.toPlainText()
    assert not pane.tabs.isTabVisible(pane.tabs.indexOf(pane.compare))
    pane.working.show_all_button.click()
    assert [h.text() for h in pane.lanes.headers] == ["PAL: 12", "Chain of thought: 11", "PoT: 12"] + [
        f"{chain}: 12" for chain in chains
    ]
    assert pane.lanes.texts[1].toPlainText().startswith("Four threes")
    assert pane.samples.item(0).text() == "PAL: 12 — agrees with the answer"
    assert pane.tabs.isTabVisible(pane.tabs.indexOf(pane.compare)) and window.answer.text() == "$12.00"


def test_the_output_shown_after_a_vote_is_the_winning_programs(qtbot: QtBot, make_window: WindowMaker) -> None:
    # seen in the window: PAL's answer won, and the Output tab showed what PoT's program printed
    pot = "```python\nprint('PoT says 12 too')\nans = 12\n```"
    model = ScriptedModel([TWELVE, "Answer: 11", pot], parallel=8, gain=1.0)
    window = make_window(model)
    _solve_mixed(qtbot, window, model)
    assert window.editor.toPlainText() == "price = 4\nprint(price * 3)"
    shown = window.output_pane.output.toPlainText()
    assert shown.strip() == "12" and "PoT says" not in shown


def test_the_columns_being_written_keep_the_room_when_the_list_under_them_fills(qtbot: QtBot) -> None:
    # seen at 150 % on a 768 px screen: the list's first line took 192 px and left the columns 82
    pane = OutputPane(Work(), Events())
    qtbot.addWidget(pane)
    pane.resize(430, 450)
    pane.show()
    pane.start_vote(["PAL", "Chain of thought", "PoT"])
    pane.tabs.setCurrentWidget(pane.vote_tab)
    pane.lane_finished(0, "75000", "print(75000)")
    lanes, listed = pane.vote_tab.sizes()
    assert lanes > 2 * listed > 0


def test_a_columns_heading_wraps_rather_than_being_cut(qtbot: QtBot) -> None:
    """Seen at 1366×768: "Chain of thought sa…" — a second round's headings did not fit a third of
    the pane. Each heading now takes the lines it needs."""
    view = LanesView()
    qtbot.addWidget(view)
    view.start(["PAL", "Chain of thought", "PoT"])
    view.add(["Chain of thought sample 1 of 2", "Chain of thought sample 2 of 2"])
    view.finish(3, "60")
    view.setFixedSize(420, 400)  # a third of it is about a column's width at 1366×768 and 150 %
    view.show()
    qtbot.waitExposed(view)
    header = view.headers[3]
    qtbot.waitUntil(lambda: header.width() < view.width() // 2)  # laid out in its column
    assert header.width() < header.fontMetrics().horizontalAdvance(header.text())  # one line would be cut
    needed = header.heightForWidth(header.width())
    assert needed > header.fontMetrics().height() and header.height() >= needed  # it has the lines it needs


def test_a_second_rounds_row_scrolls_rather_than_overlapping_or_growing_the_window(qtbot: QtBot) -> None:
    """Seen at 150 % in a 768 px screen: the second round's row made the window 746 px high (past
    the screen's bottom) and its wrapped headings were drawn over the first row's boxes."""
    view = LanesView()
    qtbot.addWidget(view)
    view.start(["PAL", "Chain of thought", "PoT"])
    view.add([f"Chain of thought sample {n} of 3" for n in (1, 2, 3)])
    view.setFixedSize(330, 150)  # the Programs tab at 150 % in a 768 px screen
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.headers[3].width() < view.width() // 2)
    for lane in range(3):
        header, text, below = view.headers[lane], view.texts[lane], view.headers[lane + 3]
        assert header.geometry().bottom() < text.geometry().top() < text.geometry().bottom() < below.geometry().top()
        assert below.height() >= below.heightForWidth(below.width())  # the heading has the lines it needs
    assert view.verticalScrollBar().maximum() > 0  # the rows that do not fit are scrolled to
    assert view.minimumSizeHint().height() < 2 * view.texts[0].minimumHeight()  # not two rows' room from the window
