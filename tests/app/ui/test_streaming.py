"""Streaming that reads well: the program streams in without its fences, a repair the user asked
for streams into the repair view (never over the program being repaired), and a reply in words
lands under Output with a plain message, not in the Program editor (real widgets, real sandbox)."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.reasoning import TokenStreamed
from app.ui.events import RepairProposed
from app.ui.repair_view import changed_lines
from app.ui.status_view import NO_PROGRAM_TEXT
from models.testing import ScriptedModel

from .conftest import WindowMaker, event_of, on_event


def test_fences_never_show_while_the_program_streams(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel(["```python\nx = 5\nprint(x * 2)\n```\nThat prints ten."], chunk_size=3, chunk_delay_s=0.005)
    window = make_window(model)
    seen: list[str] = []
    on_event(window, TokenStreamed, lambda _token: seen.append(window.editor.toPlainText()))
    window.question.setPlainText("What is twice 5?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert len(seen) > 5 and not any("`" in text for text in seen)
    assert any(text.startswith("x = 5") for text in seen)
    assert window.editor.toPlainText() == "x = 5\nprint(x * 2)"


def test_a_second_program_streams_on_its_own_without_the_first_ones_fences(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    failing = "```python\nprice = 4\nprint(price / 0)\n```"
    fixed = "```python\nprice = 4\nprint(price * 2)\n```"
    window = make_window(ScriptedModel([failing, fixed], chunk_size=3, chunk_delay_s=0.005))
    window.question_pane.auto_repair.setChecked(True)
    seen: list[str] = []
    on_event(window, TokenStreamed, lambda _token: seen.append(window.editor.toPlainText()))
    window.question.setPlainText("What is twice the price of 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.editor.toPlainText() == "price = 4\nprint(price * 2)"
    assert not any("`" in text for text in seen), [text for text in seen if "`" in text][:1]
    assert any(text.startswith("price = 4\nprint(price * ") for text in seen)  # the second, as it streamed


def test_a_repair_streams_beside_the_program_it_repairs(qtbot: QtBot, make_window: WindowMaker) -> None:
    failing = "```python\nprice = 4\nprint(price / 0)\n```"
    fixed = "```python\nprice = 4\nprint(price * 2)\n```"
    window = make_window(ScriptedModel([failing, fixed], chunk_size=3, chunk_delay_s=0.005))
    window.question.setPlainText("What is twice the price of 4?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    during: list[tuple[str, str, bool]] = []
    on_event(
        window,
        TokenStreamed,
        lambda _t: during.append(
            (window.editor.toPlainText(), window.diff.toPlainText(), window.accept_button.isEnabled())
        ),
    )
    with qtbot.waitSignal(window.controller.events.published, timeout=30_000, check_params_cb=event_of(RepairProposed)):
        window.repair()
    assert during and all(editor == "price = 4\nprint(price / 0)" for editor, _diff, _ok in during)
    assert during[-1][1].startswith("Writing the repair…") and "price * 2" in during[-1][1]
    assert not any(ok for _e, _d, ok in during)  # nothing to accept until it is complete
    assert "added   │ print(price * 2)" in window.diff.toPlainText() and window.accept_button.isEnabled()
    assert window.editor.error_line == 0 and window.editor.extraSelections() == []  # the error was the old program's


def test_an_error_band_stays_on_its_numbered_line_when_the_text_changes(make_window: WindowMaker) -> None:
    editor = make_window(ScriptedModel([])).editor
    editor.setPlainText("a = 1\nb = 2\nc = a / 0")
    editor.mark_error_line(3)
    editor.setPlainText("x = 0\ny = 1 / x\nprint(y)\nprint(x)")
    (band,) = editor.extraSelections()
    assert band.cursor.blockNumber() + 1 == editor.error_line == 3


def test_a_reply_in_words_is_not_put_in_the_program_editor(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel(["Hamlet was written by William Shakespeare."], chunk_size=5))
    window.question.setPlainText("Who wrote Hamlet?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window.editor.toPlainText() == ""
    assert "Shakespeare" in window.output.toPlainText()
    assert window.status_label.text() == NO_PROGRAM_TEXT


def test_chain_of_thought_streams_under_output_never_into_the_editor(qtbot: QtBot, make_window: WindowMaker) -> None:
    reasoning = "Three pens at $4 each cost 3 * 4 = 12 dollars.\nAnswer: 12"
    window = make_window(ScriptedModel(["```python\nprint(3 * 4)\n```", reasoning], chunk_size=4, chunk_delay_s=0.005))
    window.question_pane.pick_method("mix")
    seen: list[tuple[str, str]] = []

    def streamed(token: TokenStreamed) -> None:
        if token.purpose == "reasoning":
            seen.append((window.editor.toPlainText(), window.output.toPlainText()))

    on_event(window, TokenStreamed, streamed)
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert len(seen) > 5 and all(editor == "print(3 * 4)" for editor, _output in seen)  # PAL's, written first
    assert seen[-1][1] == "12\n\nChain of thought, checking it:\n" + reasoning  # under what PAL printed
    assert window.editor.toPlainText() == "print(3 * 4)" and window.answer.text() == "$12.00"


def test_chain_of_thought_written_in_latex_reads_as_plain_text_once_it_ends(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: Output kept "Let \\( S \\) represent …" as streamed, where the columns and
    the list show the reasoning as plain text."""
    reasoning = "Each pen costs \\( \\$4 \\), so \\( 3 \\times 4 = 12 \\).\nAnswer: \\boxed{12}"
    window = make_window(ScriptedModel(["```python\nprint(3 * 4)\n```", reasoning]))
    window.question_pane.pick_method("mix")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    shown = window.output.toPlainText()
    assert shown.startswith("12\n\nChain of thought, checking it:\nEach pen costs $4, so 3 × 4 = 12."), shown
    assert "\\(" not in shown and window.answer.text() == "$12.00"

    # cancelled half way: what it wrote so far, as plain text too
    slow = ScriptedModel(["```python\nprint(3 * 4)\n```", reasoning * 40], chunk_size=4, chunk_delay_s=0.01)
    window.controller.model = slow
    heard: list[str] = []
    on_event(window, TokenStreamed, lambda token: heard.append(token.text) if token.purpose == "reasoning" else None)
    window.solve()
    qtbot.waitUntil(lambda: "\\times" in "".join(heard), timeout=30_000)
    with qtbot.waitSignal(window.controller.busy, timeout=30_000, check_params_cb=lambda busy: not busy):
        window.cancel()
    cut = window.output.toPlainText()
    assert cut.startswith("12\n\nChain of thought, checking it:\nEach pen costs $4, so 3 ×") and "\\(" not in cut, cut


def test_a_repair_names_each_changed_line_in_words() -> None:
    assert changed_lines("a = 1\nb = a / 0\nprint(b)", "a = 1\nb = a / 2\nprint(b)\nans = b") == [
        ("same", "a = 1"),
        ("removed", "b = a / 0"),
        ("added", "b = a / 2"),
        ("same", "print(b)"),
        ("added", "ans = b"),
    ]


def test_while_a_vote_checks_the_first_answer_the_editor_keeps_its_program(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen in the window: under PAL's "60 (checking…)" the editor showed PoT's program growing.
    The other methods stream in their own columns; the vote's program replaces PAL's at the end."""
    pal, pot = "```python\nprint(3 * 4)\n```", "```python\nans = 13\n```"
    model = ScriptedModel([pal, "Answer: 13", pot, "Answer: 13"] * 2, chunk_size=3, chunk_delay_s=0.005)
    window = make_window(model)
    window.question_pane.pick_method("mix")
    seen: list[str] = []

    def streamed(token: TokenStreamed) -> None:
        if token.purpose != "reasoning" and window.answer.text().endswith("(disputed…)"):
            seen.append(window.editor.toPlainText())

    on_event(window, TokenStreamed, streamed)
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert len(seen) > 3 and set(seen) == {"print(3 * 4)"}  # PoT streamed, the editor kept PAL's
    assert window.answer.text() == "$13.00" and window.editor.toPlainText() == "ans = 13"
