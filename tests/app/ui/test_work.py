"""`Work` (the window's one model) and `Events` (the one typed subscription) without a window:
panes built on their own draw what the model and the events say, and the shape the window's code
keeps (few typed controller signals, a small window, one writer of `Work`) is checked here."""

from __future__ import annotations

import re
import threading
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from app.reasoning import Solution, SolveStatus, TokenStreamed
from app.reasoning.events import LaneFinished, LaneStreamed, VoteStarted
from app.reasoning.runs import RunView
from app.ui.events import Events, Phase
from app.ui.output_pane import OutputPane
from app.ui.program_pane import ProgramPane
from app.ui.work import Work

ROOT = Path(__file__).resolve().parents[3]


def _solution(
    answer: str | None = "12", program: str | None = "ans = 3 * 4", question: str = "Three at $4?"
) -> Solution:
    status = SolveStatus.ANSWERED if answer is not None else SolveStatus.EXECUTION_FAILED
    return Solution(
        question,
        "pal",
        status,
        answer,
        program,
        (program or "",),
        f"{answer}\n",
        None,
        None,
        None,
        (),
        False,
        None,
        0.1,
    )


def test_an_output_pane_draws_a_solve_and_a_vote_from_the_model_and_the_events(qtbot: QtBot) -> None:
    work, events = Work(), Events()
    pane = OutputPane(work, events)
    qtbot.addWidget(pane)
    work.solved(_solution())
    assert pane.answer.text() == pane.full_answer == "12"
    events.publish(VoteStarted(("Program 1 of 2", "Program 2 of 2")))
    events.publish(LaneStreamed(0, "ans = 12"))
    events.publish(LaneFinished(0, "12", "ans = 12"))
    assert pane.lanes.headers[0].text() == "Program 1 of 2: 12"
    assert pane.lanes.texts[0].toPlainText().startswith("ans = 12")
    assert pane.votes.text() == "Vote so far: 12 ×1"
    assert pane.tabs.currentWidget() is pane.vote_tab
    work.start_over()
    assert pane.answer.text() == "" and pane.lanes.texts == []
    pane.shutdown()


def test_a_hand_run_reaches_the_panes_once_with_its_run_and_its_answer(qtbot: QtBot) -> None:
    work, events = Work(), Events()
    output, program = OutputPane(work, events), ProgramPane(work, events)
    qtbot.addWidget(output)
    qtbot.addWidget(program)
    heard: list[str] = []
    work.solution_changed.connect(lambda _s: heard.append("solution"))
    work.run_changed.connect(lambda _r: heard.append("run"))
    failed = RunView("oops\nZeroDivisionError", "oops\n", "ZeroDivisionError", 2, "strong", {}, None, False, "error")
    work.ran_by_hand(failed, replace(_solution(answer=None, program="x = 1\nx / 0"), error_line=2))
    assert heard == ["solution"]
    assert output.output.toPlainText().startswith("oops") and output.tabs.currentWidget() is output.output
    assert program.editor.error_line == 2 and program.repair_button.isEnabled()
    output.shutdown()


def test_a_different_question_forgets_the_answer_and_trying_hides_it(qtbot: QtBot) -> None:
    work, events = Work(), Events()
    pane = OutputPane(work, events)
    qtbot.addWidget(pane)
    work.set_try_yourself(True)
    solution = _solution()
    work.solved(Solution(**{**solution.__dict__, "calls": ()}))  # no model calls: nothing to try
    assert not work.hiding and pane.answer.text() == "12"
    work.forget()
    assert work.solution is None and pane.answer.text() == "—"
    pane.shutdown()


def test_events_reach_only_their_kind_in_order_and_not_after_their_owner(qtbot: QtBot) -> None:
    events = Events()
    phases: list[str] = []
    tokens: list[str] = []
    owner = QObject()
    events.subscribe(Phase, lambda phase: phases.append(phase.text))
    events.subscribe(TokenStreamed, lambda token: tokens.append(token.text), owner=owner)
    events.publish(Phase("one"))
    events.publish(TokenStreamed("program", "x"))
    assert phases == ["one"] and tokens == ["x"]
    owner.deleteLater()
    qtbot.waitUntil(lambda: not events._handlers[TokenStreamed], timeout=2_000)
    events.publish(TokenStreamed("program", "y"))
    assert tokens == ["x"]
    threads: list[threading.Thread] = []
    events.subscribe(Phase, lambda _phase: threads.append(threading.current_thread()))
    poster = threading.Thread(target=lambda: events.post(Phase("from a worker")))
    poster.start()
    poster.join()
    qtbot.waitUntil(lambda: phases[-1:] == ["from a worker"], timeout=2_000)
    assert threads == [threading.main_thread()]  # handlers run on the window's thread


def test_the_window_code_keeps_its_shape() -> None:
    """Issue 30's measures: few typed controller signals and no switch over event types, a small
    window with no result-drawing handlers, and `Work`'s fields assigned only by `Work`."""
    controller = (ROOT / "app/ui/controller.py").read_text()
    signals = re.findall(r"^\s+\w+ = Signal\((.*)\)$", controller, flags=re.M)
    assert len(signals) <= 8 and not any("object" in types for types in signals), signals
    assert "isinstance(payload" not in controller
    window = (ROOT / "app/ui/main_window.py").read_text()
    assert len(window.splitlines()) <= 300
    assert not re.search(r"def _on_(solved|run_shown|repaired|model_ready|isolation|program)\b", window)
    fields = "solution|origin|solve|last_run|trace|graph|try_yourself|hiding"
    writers = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for path in (ROOT / "app").rglob("*.py")
        if path.name != "work.py"
        for line in path.read_text().splitlines()
        if re.search(rf"\bwork\.({fields})\s*=[^=]", line)
    ]
    assert writers == []
