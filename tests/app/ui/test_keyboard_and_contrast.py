"""Keyboard use and legibility: Tab leaves the question box, shortcuts reach the history and the
panes, text colours meet WCAG AA (4.5:1), deleting asks first, closing mid-solve asks first."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app.ui import code_editor
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import Screen, WindowMaker

PROGRAM = "```python\nprint(5 + 2 * 3)\n```"


def _luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    light, dark = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_code_colours_meet_wcag_aa() -> None:
    assert contrast("#8c8c8c", "#ffffff") < 4.5  # the old comment colour fails: the check can fail
    for _pattern, colour in code_editor._RULES:
        assert contrast(colour, "#ffffff") >= 4.5, colour
    assert contrast(code_editor.LINE_NUMBER_COLOUR, code_editor.GUTTER_COLOUR) >= 4.5


def test_the_window_opens_ready_to_type_a_question(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the real window: a question typed right after start went into History's search box
    (the first widget in the focus chain), filtering the history instead."""
    window = make_window(ScriptedModel([]))
    window.history_panel.setVisible(True)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.question)
    qtbot.keyClicks(QApplication.focusWidget(), "How many?")
    assert window.question.toPlainText() == "How many?" and window.history_panel.search.text() == ""


def test_tab_moves_focus_out_of_the_question(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.activateWindow()
    window.question.setFocus()
    qtbot.waitUntil(window.question.hasFocus)
    qtbot.keyClick(window.question, Qt.Key.Key_Tab)
    assert window.question.toPlainText() == ""  # no tab character typed
    assert not window.question.hasFocus()


def test_shortcuts_reach_the_history_and_the_panes(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(1920, 1080))  # room for the history beside the panes
    window.history_panel.setVisible(True)  # a narrow test screen starts with it hidden
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    assert not window.history_panel.isVisible()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert window.history_panel.isVisible()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.history_panel.search)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.editor)


@pytest.mark.parametrize(("answer", "left"), [(QMessageBox.StandardButton.No, 1), (QMessageBox.StandardButton.Yes, 0)])
def test_deleting_a_history_entry_asks_first(
    qtbot: QtBot,
    make_window: WindowMaker,
    monkeypatch: pytest.MonkeyPatch,
    answer: QMessageBox.StandardButton,
    left: int,
) -> None:
    window = make_window(ScriptedModel([PROGRAM]))
    window.question.setPlainText("What is 5 + 2 * 3?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    asked: list[str] = []

    def question(box: QMessageBox) -> QMessageBox.StandardButton:
        asked.append(box.text())
        return answer

    monkeypatch.setattr(QMessageBox, "exec", question)
    panel = window.history_panel
    panel.list.setCurrentRow(0)
    qtbot.mouseClick(panel.delete_button, Qt.MouseButton.LeftButton)
    assert asked and "cannot be undone" in asked[0]
    assert panel.list.count() == left == len(window.controller.history.entries())


def test_closing_mid_solve_asks_and_keeps_the_work(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_program = "```python\nprint(5 + 2 * 3)\n" + "x = 1\n" * 150 + "```"  # about 9 s to stream
    window = make_window(ScriptedModel([long_program], chunk_size=2, chunk_delay_s=0.05))
    window.question.setPlainText("a question being solved")
    window.solve()
    qtbot.waitUntil(lambda: "x = 1" in window.editor.toPlainText(), timeout=20_000)
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]
    monkeypatch.setattr(QMessageBox, "exec", lambda _box: answers.pop(0))
    assert not window.close()  # "No": the window stays, the solve goes on
    assert window.isVisible() and window.controller.is_busy
    assert window.close()  # "Yes": it closes, the solve stops, the work is kept for the next start
    saved = window.recovery_path.read_text()
    assert "a question being solved" in saved and "print(5 + 2 * 3)" in saved


def test_long_work_shows_its_phase_and_the_seconds_so_far(qtbot: QtBot, make_window: WindowMaker) -> None:
    long_program = "```python\n" + "x = 1\n" * 150 + "print(x)\n```"  # about 18 s at 20 ms a character
    window = make_window(ScriptedModel([long_program], chunk_size=1, chunk_delay_s=0.02))
    window.question.setPlainText("slow")
    window.solve()
    qtbot.waitUntil(lambda: "… 1 s" in window.status_label.text(), timeout=5_000)
    assert window.status_label.text().startswith("Writing the program")
    qtbot.waitUntil(lambda: "… 2 s · " in window.status_label.text(), timeout=5_000)
    assert window.status_label.text().endswith(" tokens/s")  # the solve's own speed, beside its phase
    with qtbot.waitSignal(window.work.solution_changed, timeout=10_000):
        window.controller.cancel()
    assert not window.status_label.text().endswith(" s")  # the count stops with the work


def test_every_shortcut_is_bound_listed_in_help_and_in_the_readme(qtbot: QtBot, make_window: WindowMaker) -> None:
    from pathlib import Path

    from PySide6.QtGui import QKeySequence, QShortcut

    from app.ui.keyboard import SHORTCUTS, KeyboardDialog, shown_keys

    window = make_window(ScriptedModel([]))
    bound = {shortcut.key().toString() for shortcut in window.findChildren(QShortcut)}
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    dialog = KeyboardDialog(window)
    listed = [item.text() for row in range(dialog.table.rowCount()) if (item := dialog.table.item(row, 0)) is not None]
    for keys, _slot, _words in SHORTCUTS:
        assert QKeySequence(keys).toString() in bound, keys
        assert shown_keys(keys) in listed
        assert f"**{shown_keys(keys)}**" in readme, keys
    from PySide6.QtWidgets import QApplication

    from app.ui.keyboard import FOCUS_RING

    application = QApplication.instance()
    assert isinstance(application, QApplication) and FOCUS_RING in application.styleSheet()  # the focus ring
