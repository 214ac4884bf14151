"""The main window with real widgets and signals (pytest-qt), a ScriptedModel and the real sandbox."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QTreeWidget
from pytestqt.qtbot import QtBot

from app.reasoning import Solution, SolveStatus, TokenStreamed
from app.reasoning.methods import solve
from app.reasoning.tables import linearise_table, without_table
from app.store.speeds import speed_text
from app.ui.events import RepairProposed
from app.ui.history_panel import HistoryPanel
from app.ui.main_window import MainWindow
from app.ui.status_view import BUSY_NOTE
from models import catalog
from models.local import LocalModel
from models.testing import ScriptedModel
from models.types import ModelError
from sandbox import Sandbox

from .conftest import WindowMaker, event_of, on_event, private_window

PROGRAM = "```python\n# the answer\nprint(5 + 2 * 3)\n```"


def test_ctrl_enter_streams_the_program_and_shows_the_answer(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel([PROGRAM], chunk_size=4)
    window = make_window(model)
    tokens: list[str] = []
    on_event(window, TokenStreamed, lambda token: tokens.append(token.text))
    qtbot.keyClicks(window.question, "What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as blocker:
        qtbot.keyClick(window.question, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    solution = blocker.args[0]
    assert isinstance(solution, Solution) and solution.answer == "11"
    assert len(tokens) > 3
    assert window.editor.toPlainText() == "# the answer\nprint(5 + 2 * 3)"
    assert window.answer.text() == "11"
    assert window.output.toPlainText().strip() == "11"
    backend = "WebAssembly" if window.controller.sandbox.backend == "wasm" else "native"
    assert window.isolation_label.text() == f"sandbox: strong · {backend}"


def test_ctrl_enter_again_while_it_solves_says_why_nothing_starts(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Ctrl+Enter (or Ctrl+R) while a solve ran did nothing at all, with nothing said."""
    model = ScriptedModel(["```python\nimport time\ntime.sleep(2.5)\nprint(7)\n```", PROGRAM])
    window = make_window(model)
    window.question_pane.pick_method("pal")
    window.question.setPlainText("What is 3 + 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as blocker:
        window.solve()
        qtbot.waitUntil(lambda: window.controller.is_busy, timeout=5_000)
        window.question.setPlainText("What is 5 + 2 * 3?")
        qtbot.keyClick(window.question, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert window.status_label.text().endswith(BUSY_NOTE), window.status_label.text()
        qtbot.wait(1_600)  # the phase line ticks every second: the note stays a while
        assert window.status_label.text().endswith(BUSY_NOTE), window.status_label.text()
        window.run_program()
    assert blocker.args[0].answer == "7" and len(model.requests) == 1  # the second question waits
    assert BUSY_NOTE not in window.status_label.text()


def test_run_an_edited_program_without_the_model(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel([PROGRAM])
    window = make_window(model)
    window.question.setPlainText("What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    window.editor.setPlainText("print(6 * 7)")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        qtbot.keyClick(window.editor, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert window.output.toPlainText().strip() == "42"
    assert len(model.calls) == 1


def test_repair_shows_a_diff_and_the_accepted_program_runs(qtbot: QtBot, make_window: WindowMaker) -> None:
    failing = "```python\nprice = 4\nprint(price / 0)\n```"
    fixed = "```python\nprice = 4\nprint(price * 2)\n```"
    model = ScriptedModel([failing, fixed])
    window = make_window(model)
    window.question.setPlainText("What is twice the price of 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert "ZeroDivisionError" in window.output.toPlainText()
    assert window.editor.error_line == 2
    # the status says why in one line; the traceback is in Output (it made the status bar three lines high)
    said = window.status.message.text()
    assert said.endswith(" — ZeroDivisionError: division by zero (line 2)") and "\n" not in said, said
    assert window.repair_button.isEnabled()
    with qtbot.waitSignal(window.controller.events.published, timeout=30_000, check_params_cb=event_of(RepairProposed)):
        qtbot.mouseClick(window.repair_button, Qt.MouseButton.LeftButton)
    assert len(model.calls) == 2
    assert window.diff.isVisible()
    assert "removed │ print(price / 0)" in window.diff.toPlainText()
    assert "added   │ print(price * 2)" in window.diff.toPlainText() and len(window.diff.extraSelections()) == 2
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        qtbot.mouseClick(window.accept_button, Qt.MouseButton.LeftButton)
    assert window.output.toPlainText().strip() == "8"
    assert not window.diff.isVisible()


def test_cancel_stops_a_slow_stream(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel(["```python\nprint(" + "1 + " * 300 + "1)\n```"], chunk_size=2, chunk_delay_s=0.02)
    window = make_window(model)
    window.question.setPlainText("A long one")
    tokens: list[str] = []
    on_event(window, TokenStreamed, lambda token: tokens.append(token.text))
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000) as blocker:
        window.solve()
        qtbot.waitUntil(lambda: len(tokens) >= 3, timeout=10_000)
        qtbot.keyClick(window.question, Qt.Key.Key_Escape)
    solution = blocker.args[0]
    assert solution.status is SolveStatus.CANCELLED
    assert len(tokens) < 100
    assert window.answer.text() == "—"
    assert "cancelled" in window.status_label.text()


def test_method_and_layout_are_remembered(qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    window = make_window(ScriptedModel(["```python\nans = 2\n```"]))
    window.method.setCurrentIndex(window.method.findData("pot"))
    window.question.setPlainText("q")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    total = sum(window.splitter.sizes())
    window.splitter.setSizes([total // 10, total // 5, total // 3, total - total // 10 - total // 5 - total // 3])
    chosen = window.splitter.sizes()
    window.close()
    again = make_window(ScriptedModel([]))
    assert again.method.currentData() == "pot"
    assert again.splitter.sizes() == chosen != [total // 4] * 4


def test_table_is_linearised_into_the_question() -> None:
    assert linearise_table("name,price\napple, 3\n") == "name | price\napple | 3"
    assert linearise_table("a\tb\n1\t2") == "a | b\n1 | 2"


def test_a_question_typed_into_the_table_box_is_not_solved_as_rows(make_window: WindowMaker) -> None:
    model = ScriptedModel([PROGRAM])
    window = make_window(model)
    window.question_pane.table.setPlainText("Make a table of n and n squared for n from 1 to 25.")  # seen in the window
    window.solve()
    assert "Type the question in the box above" in window.status_label.text()
    assert not window.controller.is_busy and model.calls == []
    window.question_pane.table.clear()
    window.solve()
    assert window.status_label.text() == "Type a question first."


def test_real_model_end_to_end(qtbot: QtBot, make_window: WindowMaker, local_model: LocalModel) -> None:
    window = make_window(local_model)
    window.question.setPlainText("What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=180_000) as blocker:
        window.solve()
    assert blocker.args[0].answer == "11"
    assert window.answer.text() == "11"


def test_a_real_solve_measures_the_models_speed_for_settings(
    qtbot: QtBot, make_window: WindowMaker, local_model: LocalModel
) -> None:
    window = make_window(local_model)
    window.question_pane.pick_method("pal")  # one sequence: a vote's share the computer
    window.question.setPlainText("What is 12 * 7?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=180_000):
        window.solve()
    rate = window.controller.speeds.of(catalog.load().default.file_name)
    assert rate is not None and 1 < rate < 1000
    assert speed_text(catalog.load().default.file_name, 1, window.controller.speeds, catalog.load()) == (
        f"{rate:.0f} tokens/s measured on this computer"
    )


def test_history_entries_fit_the_pane_at_any_width_and_a_huge_answer_reads_short(
    qtbot: QtBot, make_window: WindowMaker, sandbox: Sandbox
) -> None:
    """Seen in the window: one unbreakable answer ("abab…" × 300) made the list as wide as itself,
    every entry ran off the pane's edge with tall empty gaps between them, and a 955-digit answer
    was listed as 500 digits and "… [455 more characters]"."""
    window = make_window(ScriptedModel([]))
    history = window.controller.history
    wordy = "How many ways " + "to pick one of three " * 8
    for question, printed in [("Spell it", "'ab' * 300"), (wordy, "3 ** 2000")]:
        program = ScriptedModel([f"```python\nprint({printed})\n```"])
        history.finish(history.start(question, "pal", {}), solve(question, "pal", program, sandbox))
    panel = HistoryPanel(history, window.work)  # on its own, to be resized freely
    qtbot.addWidget(panel)
    panel.resize(240, 600)
    panel.show()
    listed = panel.list
    texts = [listed.item(n).text() for n in range(listed.count())]
    assert "1.747… × 10^954 (955 digits)" in texts[0] and all(len(t) < 250 for t in texts)
    assert not any("more characters" in t for t in texts)
    qtbot.waitUntil(lambda: 0 < listed.visualItemRect(listed.item(0)).width() < 240)
    assert listed.horizontalScrollBar().maximum() == 0  # nothing wider than the pane
    rects = [listed.visualItemRect(listed.item(n)) for n in range(listed.count())]
    assert rects[1].top() - rects[0].bottom() <= 4  # one after the other, no gap
    narrow = rects[0].height()
    panel.resize(1000, 600)
    qtbot.waitUntil(lambda: listed.visualItemRect(listed.item(0)).width() > 600)
    assert listed.visualItemRect(listed.item(0)).height() < narrow  # wrapped anew: fewer lines


def test_a_solve_with_a_pasted_table_is_listed_by_its_question(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the window: every such solve was listed as "title | channel | views Fractions | …"."""
    window = make_window(ScriptedModel([PROGRAM]))
    window.question.setPlainText("What is 5 + 2 * 3?")
    window.question_pane.table.setPlainText("title,views\nFractions,1.2M\nDivision,850K")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    listed = window.history_panel.list.item(0).text()
    assert listed.startswith("● answered What is 5 + 2 * 3? (with a pasted table) → 11"), listed
    assert without_table("a | b\n1 | 2\nHow many?") == ("How many?", 2)
    assert without_table("What is |x - 3| when x = 1?") == ("What is |x - 3| when x = 1?", 0)


def test_history_survives_reopening_and_restores_a_solve(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([PROGRAM]))
    window.question.setPlainText("What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.history_panel.list.count() == 1
    assert "What is 5 + 2 * 3? → 11" in window.history_panel.list.item(0).text()
    window.close()

    again = make_window(ScriptedModel([]))  # the same SQLite file
    assert again.history_panel.list.count() == 1
    assert again.editor.toPlainText() == ""
    item = again.history_panel.list.item(0)
    qtbot.mouseClick(
        again.history_panel.list.viewport(),
        Qt.MouseButton.LeftButton,
        pos=again.history_panel.list.visualItemRect(item).center(),
    )
    assert again.question.toPlainText() == "What is 5 + 2 * 3?"
    assert again.editor.toPlainText() == "# the answer\nprint(5 + 2 * 3)"
    assert again.output.toPlainText().strip() == "11"
    assert again.answer.text() == "11"
    again.history_panel.search.setText("no such thing")
    assert [again.history_panel.list.item(i).text() for i in range(again.history_panel.list.count())] == [
        "No past solve matches “no such thing”."
    ]


NO_ISOLATION_WORKER = (
    "import sys, json\n"
    "print(json.dumps({'op': 'ready', 'isolation': 'none', 'layers': []}), flush=True)\n"
    "for line in sys.stdin:\n"
    "    req = json.loads(line)\n"
    "    result = {'status': 'ok', 'stdout': '11\\n', 'stderr': '', 'error': None, 'error_line': None,\n"
    "              'values': {}, 'duration_s': 0.0, 'isolation': 'none', 'trace': None}\n"
    "    print(json.dumps({'op': 'result', 'id': req['id'], 'result': result}), flush=True)\n"
)


@pytest.mark.parametrize("consent", [False, True])
def test_without_isolation_the_user_is_asked_first(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch, consent: bool
) -> None:
    asked: list[str] = []

    def ask(box: QMessageBox) -> QMessageBox.StandardButton:
        asked.append(box.windowTitle())
        return QMessageBox.StandardButton.Yes if consent else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "exec", ask)
    model = ScriptedModel([PROGRAM])
    window = make_window(model, Sandbox(command=[sys.executable, "-c", NO_ISOLATION_WORKER]))
    assert window.isolation_label.text().startswith("sandbox: none · ")
    window.question.setPlainText("What is 5 + 2 * 3?")
    if consent:
        with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
            window.solve()
        assert window.answer.text() == "11"
    else:
        window.solve()
        assert model.calls == [] and not window.controller.is_busy
    assert asked == ["No isolation"]


def _close_during_a_slow_solve(qtbot: QtBot, make_window: WindowMaker, question: str) -> MainWindow:
    slow = ScriptedModel(["```python\nprint(" + "1 + " * 400 + "1)\n```"], chunk_size=1, chunk_delay_s=0.01)
    window = make_window(slow)
    window.question.setPlainText(question)
    tokens: list[str] = []
    on_event(window, TokenStreamed, lambda token: tokens.append(token.text))
    window.solve()
    qtbot.waitUntil(lambda: len(tokens) > 5, timeout=10_000)
    asked: list[object] = []

    def confirm(box: QMessageBox) -> QMessageBox.StandardButton:
        asked.append(box.text())
        return QMessageBox.StandardButton.Yes

    original, QMessageBox.exec = QMessageBox.exec, confirm  # type: ignore[method-assign, assignment]
    try:
        assert window.close()
    finally:
        QMessageBox.exec = original  # type: ignore[method-assign]
    assert len(asked) == 1  # closing mid-solve asks first
    return window


def test_closing_during_a_solve_stops_everything(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = _close_during_a_slow_solve(qtbot, make_window, "slow")  # the fixture checks for stray threads
    assert not window.controller.is_busy
    assert window.controller.sandbox.worker_pid is None


def test_a_solve_cut_short_by_closing_is_recorded(qtbot: QtBot, make_window: WindowMaker) -> None:
    _close_during_a_slow_solve(qtbot, make_window, "closing mid-way")
    again = make_window(ScriptedModel([]))
    entry = again.controller.history.entries()[0]
    assert (entry.question, entry.status) == ("closing mid-way", "cancelled")


def test_a_model_that_cannot_load_is_explained(qtbot: QtBot, tmp_path: Path) -> None:
    def broken(_progress: object) -> ScriptedModel:
        raise ModelError("qwen.gguf is damaged or incomplete: the file ends in the middle of its header")

    window = private_window(broken, tmp_path)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.controller.model_failed, timeout=30_000):
        window.show()
    assert "qwen.gguf is damaged" in window.status_label.text()
    assert window.model_label.text() == "model: not loaded"
    window.question.setPlainText("What is 1 + 1?")
    window.solve()
    assert "not loaded" in window.status_label.text()
    window.close()


def test_the_picker_offers_every_method_and_a_vote_is_shown(qtbot: QtBot, make_window: WindowMaker) -> None:
    replies = ["```python\nprint(12)\n```", "```python\nprint(10)\n```", "```python\nprint(12.0)\n```"]
    model = ScriptedModel([*replies, "```python\nprint(1/0)\n```", "```python\nprint(10 + 2)\n```"])
    window = make_window(model)
    keys = [window.method.itemData(i) for i in range(window.method.count())]
    assert {"pal", "pot", "cot", "sc-pal", "pal+shots"} <= set(keys)
    window.method.setCurrentIndex(keys.index("sc-pal"))
    window.question.setPlainText("What is 3 * 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "12"
    assert window.output_pane.votes.isVisible()
    assert window.output_pane.votes.text() == (
        "Vote of 5 programs: 12 ×3, 10 ×1; 1 failed\nChecked: most of the sampled programs agree"
    )
    assert window.output_pane.votes.toolTip().startswith(
        "3 of 5 programs agree. Answers checked this way were right 18 of 23 times (78 %)"
    )
    assert len(model.calls) == 5  # 12 led 2 to 1 after four samples: the fifth could still tie it


def test_weak_support_is_said_next_to_the_answer(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel([f"```python\nprint({n})\n```" for n in (12, 10, 7, 12, 10)])
    window = make_window(model)
    window.method.setCurrentIndex(window.method.findData("sc-pal"))
    window.question.setPlainText("What is 3 * 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "12"
    assert window.output_pane.votes.text().splitlines()[-1] == ("Checked: the sampled programs disagree — compare them")
    assert window.output_pane.votes.toolTip() == (
        "Two answers tied: 12 (2) and 10 (2). How often answers checked this way are right has not been measured yet."
    )


def test_chain_of_thought_shows_its_reasoning_and_a_fallback_is_labelled(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    model = ScriptedModel(["Three fours are 12.\nAnswer: 12", "```python\nprint(1/0)\n```", "So it is 7.\nAnswer: 7"])
    window = make_window(model)
    keys = [window.method.itemData(i) for i in range(window.method.count())]
    window.method.setCurrentIndex(keys.index("cot"))
    window.question.setPlainText("What is 3 * 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "12"
    assert "Three fours are 12." in window.output.toPlainText()
    assert window.output_pane.votes.text() == ("Checked: reasoning in words only, not checked by a program")
    assert window.output_pane.votes.toolTip().startswith(
        "One chain of thought, not cross-checked. Answers checked this way were right 122 of 200 times"
    )
    window.method.setCurrentIndex(keys.index("sc-pal+shots+fallback"))
    window.controller.model = ScriptedModel(["```python\nprint(1/0)\n```"] * 5 + ["So it is 7.\nAnswer: 7"])
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "7"
    assert "chain of thought's, not a program's" in window.output_pane.votes.text()


def test_chain_of_code_marks_emulated_lines_and_iipc_shows_its_timeline(qtbot: QtBot, make_window: WindowMaker) -> None:
    program = "```python\nitems = ['plum', 'onion']\nanswer = 0\nfor name in items:\n"
    program += "    if is_fruit(name):\n        answer += 1\n```"
    model = ScriptedModel([program, '{"value": true}', '{"value": false}'])
    window = make_window(model)
    keys = [window.method.itemData(i) for i in range(window.method.count())]
    window.method.setCurrentIndex(keys.index("coc"))
    window.question.setPlainText("How many fruits?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "1"
    assert window.editor.emulated_lines == frozenset({4})
    emulated = [s for s in window.editor.extraSelections() if s.format.background().color().name() == "#ece0ff"]
    assert len(emulated) == 1 and emulated[0].cursor.blockNumber() == 3
    steps = window.output_pane.steps
    assert top_level_texts(steps)[:2] == ["4 steps ran in Python, 2 were emulated", "line 4, emulated: value = True"]

    window.controller.model = ScriptedModel([
        "1. two numbers", "```python\nprint(2 + 3)\n```", "Verdict: VALID\nReflection: none", "2 + 3 = 5\nAnswer: 5",
        "Answer: 5",
    ])  # fmt: skip
    window.method.setCurrentIndex(keys.index("iipc"))
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "5"
    assert window.editor.emulated_lines == frozenset()
    titles = top_level_texts(steps)
    assert titles[0] == "Key propositions" and "✓ Validation 1: valid" in titles
    assert titles[-1].startswith("✓ Integration")
    first = steps.topLevelItem(0)
    detail = first.child(0) if first is not None else None
    assert detail is not None and detail.text(0) == "1. two numbers"  # expands to the full text
    assert window.output_pane.tabs.currentWidget() is steps


def top_level_texts(tree: QTreeWidget) -> list[str]:
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return [item.text(0) for item in items if item is not None]


def test_an_error_is_put_in_plain_words_above_the_traceback(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.editor.setPlainText("total_cost = 3 * 4\nprint(totl_cost)")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    shown = window.output.toPlainText()
    assert shown.startswith("`totl_cost` is not defined (line 2) — did you mean `total_cost`?")
    assert "NameError" in shown  # Python's own words follow


def test_the_model_reads_the_picked_methods_prompt_ahead_without_making_the_window_busy(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    from dataclasses import replace

    model = ScriptedModel(["w", PROGRAM], parallel=8)
    model.capabilities = replace(model.capabilities, prompt_cache=True)  # as the built-in model declares
    window = make_window(model)  # with PAL picked: its prompt is the one read ahead
    qtbot.waitUntil(lambda: len(model.requests) == 1, timeout=10_000)
    assert model.requests[0].max_tokens == 1 and model.batches == []
    qtbot.waitUntil(lambda: window.status_label.text() == "Ready.", timeout=10_000)
    assert window.solve_button.isEnabled() and not window.controller.is_busy
    window.question.setPlainText("What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.answer.text() == "11"
