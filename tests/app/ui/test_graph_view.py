"""An equation question gets a Graph tab drawn from the sandbox's sample points, and the Markdown
export carries the figure beside it (real widgets, real sandbox)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from models.testing import ScriptedModel

from .conftest import WindowMaker

PROGRAM = (
    "```python\nfrom sympy import symbols, Eq, solve\nx = symbols('x')\n"
    "equation = Eq(3*x + 7, 25)\nans = solve(equation, x)[0]\nprint(ans)\n```"
)


def test_an_equation_is_graphed_and_exported(qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    window = make_window(ScriptedModel([PROGRAM]))
    window.question.setPlainText("Solve for x: 3x + 7 = 25.")
    with qtbot.waitSignal(window.work.graph_changed, timeout=60_000) as drawn:
        window.solve()
    graph = drawn.args[0]
    assert [m.label for m in graph.marks] == ["x = 6"]
    qtbot.waitUntil(lambda: window.output_pane.graph_pixmap is not None, timeout=30_000)  # drawn off the UI thread
    pixmap = window.output_pane.graph_pixmap
    assert pixmap is not None and not pixmap.isNull() and pixmap.width() > 300
    window.export_to(tmp_path / "eq.md")
    assert "![Graph of the equation](eq-graph.png)" in (tmp_path / "eq.md").read_text()
    assert (tmp_path / "eq-graph.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_running_an_equation_by_hand_draws_it_too(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Ctrl+R on the equation's program (edited: a new equation) draws its graph, as a solve does."""
    window = make_window(ScriptedModel([]))
    window.question.setPlainText("Solve for x: 2x - 4 = 10.")
    window.editor.setPlainText(PROGRAM.strip("`\n").removeprefix("python\n").replace("3*x + 7, 25", "2*x - 4, 10"))
    with qtbot.waitSignal(window.work.graph_changed, timeout=60_000) as drawn:
        window.run_program()
    assert [m.label for m in drawn.args[0].marks] == ["x = 7"]
    steps = [label.text() for label in window.output_pane.working.findChildren(QLabel)]
    assert "Add 4 to both sides:" in steps and "Divide both sides by 2:" in steps
