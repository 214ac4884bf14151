"""Explain this line: the model's words on the line under the cursor stream in beside the program;
Esc stops them; the model is sent the question, the program and the line (real widgets)."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from app.reasoning import TokenStreamed
from app.ui.events import LineExplained
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import WindowMaker, event_of, on_event

PROGRAM = "bagels = 5\nbagel_cost = 3\nmoney_spent = bagels * bagel_cost\nprint(23 - money_spent)"


def _cursor_on(window: MainWindow, line: int) -> None:
    editor = window.editor
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Start)
    cursor.movePosition(QTextCursor.MoveOperation.Down, n=line - 1)
    editor.setTextCursor(cursor)


def test_the_line_under_the_cursor_is_explained(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel(["This multiplies the number of bagels by the price of one: the money spent."], chunk_size=6)
    window = make_window(model)
    window.question.setPlainText("Olivia has $23 and buys five bagels for $3 each. How much is left?")
    window.editor.setPlainText(PROGRAM)
    _cursor_on(window, 3)
    streamed: list[str] = []
    on_event(window, TokenStreamed, lambda _t: streamed.append(window.program_pane.explanation.text()))
    with qtbot.waitSignal(window.controller.events.published, timeout=30_000, check_params_cb=event_of(LineExplained)):
        window.explain_line()
    shown = window.program_pane.explanation
    assert shown.isVisible() and shown.text().startswith("Line 3: This multiplies")
    assert len(streamed) > 3 and streamed[0].startswith("Line 3: ")
    assert "Line 3: money_spent = bagels * bagel_cost" in model.calls[0] and "How much is left?" in model.calls[0]


def test_esc_stops_an_explanation(qtbot: QtBot, make_window: WindowMaker) -> None:
    model = ScriptedModel(["word " * 400], chunk_size=5, chunk_delay_s=0.01)
    window = make_window(model)
    window.editor.setPlainText(PROGRAM)
    _cursor_on(window, 1)
    with qtbot.waitSignal(window.controller.events.published, timeout=30_000, check_params_cb=event_of(LineExplained)):
        window.explain_line()
        qtbot.wait(200)
        window.controller.cancel()
    assert len(window.program_pane.explanation.text()) < len("word " * 400)
    assert not window.controller.is_busy


def test_an_explanation_that_names_its_line_is_not_prefixed_again(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the window: "Line 7: Line 7 defines the equation 3x + 7 = 25 …"."""
    window = make_window(ScriptedModel(["Line 2 sets the price of one bagel.", "It prints what is left."]))
    window.editor.setPlainText(PROGRAM)
    for line, expected in ((2, "Line 2 sets the price of one bagel."), (4, "Line 4: It prints what is left.")):
        _cursor_on(window, line)
        with qtbot.waitSignal(
            window.controller.events.published, timeout=30_000, check_params_cb=event_of(LineExplained)
        ):
            window.explain_line()
        assert window.program_pane.explanation.text() == expected
