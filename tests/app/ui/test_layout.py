"""The window fits laptop screens: its default size, its minimum, long texts, 150 % scaling."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.reasoning import ProgramExtracted
from app.ui.layouts import ScrolledLabel, VerticalScroll
from app.ui.main_window import MainWindow
from app.ui.plain import TIP_CHARS, Label
from app.ui.status_view import EDITED_WHILE_SOLVING
from models.testing import ScriptedModel

from .conftest import Screen, WindowMaker, event_of


def _scroll_area_of(widget: QWidget) -> QWidget | None:
    viewport = widget.parentWidget()  # a scroll area holds its widget in its viewport
    return viewport.parentWidget() if viewport is not None else None


@pytest.mark.parametrize(
    "size",
    [(1366, 768), (1024, 700), (910, 512)],  # the last: 1366×768 at 150 % scaling, in logical pixels
    ids=["1366x768", "1024x700", "1366x768-at-150%"],
)
def test_the_window_opens_inside_the_screen(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: tuple[int, int]
) -> None:
    width, height = size
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(width, height))
    window.reset_layout()
    qtbot.wait(50)
    geometry = window.frameGeometry()
    assert geometry.width() <= width and geometry.height() <= height, geometry
    assert geometry.left() >= 0 and geometry.top() >= 0
    assert window.output_pane.isVisible() and window.output_pane.width() > 200  # the answer column is there
    shot = window.grab()
    assert shot.save(str(tmp_path / f"window-{width}x{height}.png"))
    assert shot.width() <= width


def test_a_restore_offer_on_a_short_screen_leaves_the_status_bar_on_it(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in a real window at 150 %: with the restore bar above the panes the window needed 797 px
    of a 768 px screen and the status bar was off it. The Question pane now scrolls instead."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))
    window.restore_bar.offer("A baker made 24 muffins and sold 3 boxes of 6. How many muffins are left? " * 2, None)
    window.reset_layout()
    qtbot.wait(50)
    assert window.minimumSizeHint().height() <= 512 - 30, window.minimumSizeHint()  # a title bar's room
    assert window.height() <= 512 and window.statusBar().geometry().bottom() < window.height()
    window.resize(window.width(), window.minimumSizeHint().height())
    qtbot.wait(50)
    pane = _scroll_area_of(window.question_pane)
    assert isinstance(pane, VerticalScroll)
    assert pane.verticalScrollBar().maximum() > 0  # the Question pane scrolls: every control is still reachable


def test_the_minimum_size_fits_a_small_laptop(make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    minimum = window.minimumSizeHint()
    assert minimum.width() <= 1024 and minimum.height() <= 700, minimum


def test_long_texts_do_not_widen_the_window(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    before = window.width()
    window.status.show("The program failed: " + "a very long error message " * 80)
    window.output_pane.show_answer("1234567890" * 40)
    window.model_label.setText("model: " + "a model with a very long name " * 10)
    window.output_pane.stepper.position.setText("step 3 of 9: " + "x = x + 1; " * 60)
    qtbot.wait(50)
    assert window.width() == before
    assert window.minimumSizeHint().width() <= 1024


def test_a_data_file_leaves_room_at_150_percent(qtbot: QtBot, make_window: WindowMaker, tmp_path: Path) -> None:
    # "Open data… (Ctrl+O)" beside "Remove data" made the narrowest window 897 logical pixels: 1,346 of a
    # 1,366 px screen at 150 %, past its edge where the window manager placed it
    window = make_window(ScriptedModel([]))
    path = tmp_path / "barley.json"
    path.write_text('[{"yield": 27.0, "variety": "Manchuria", "year": 1931, "site": "University Farm"}]')
    window.open_data_file(path)
    qtbot.waitUntil(window.question_pane.remove_data_button.isVisible, timeout=10_000)
    assert window.minimumSizeHint().width() <= 890, window.minimumSizeHint()  # 910 less a frame's room


_ROWS = (
    "```python\nimport datetime\n"
    "ans = [{{'date': datetime.date(2024, 3, d), 'category': 'food', 'amount': {base} + d,"
    " 'note': 'groceries at the corner shop, receipt number ' + str(1000 * d)}} for d in range(1, 31)]\nprint(ans)\n```"
)


def test_a_table_answer_a_vote_compare_a_graph_and_an_explanation_stay_inside_a_laptop_screen(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Measured in a real window before: a 30-row data answer made it 3,785 px wide (32,767 in the
    issue) and impossible to shrink. Now every part is in place and the window is where it was."""
    from app.reasoning.graphs import Curve, Graph, Mark

    a, b = _ROWS.format(base=10.5), _ROWS.format(base=11.5)
    window = make_window(ScriptedModel([a, b, a, b, a]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(1366, 768))
    window.reset_layout()
    qtbot.wait(50)
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText("List every expense from March 2024 in the food category as a table")
    with qtbot.waitSignal(window.work.solution_changed, timeout=120_000):
        window.solve()
    pane = window.output_pane
    curve = Curve("left side", tuple(float(x) for x in range(-50, 51)))
    graph = Graph(tuple(float(x) for x in range(-50, 51)), (curve,), (Mark(3.0, 0.0, "x = 3"),), "x")
    with qtbot.waitSignal(pane.graph_shown, timeout=30_000):
        pane.show_graph(graph)
    window.program_pane.explanation.setText("The program " + "adds each day's amount to the running total " * 40)
    pane.tabs.setCurrentWidget(pane.compare)
    qtbot.wait(100)
    assert pane.table_view.isVisibleTo(window) or pane.tabs.indexOf(pane.table_view) >= 0
    assert "30 rows" in window.answer.text()  # never a repr of the rows
    assert "datetime.date" not in pane.votes.text() and "datetime.date" not in window.answer.text()
    assert window.minimumSizeHint().width() <= 1000, window.minimumSizeHint()
    assert window.frameGeometry().width() <= 1366 and window.frameGeometry().height() <= 768, window.frameGeometry()


def _visible_tabs(window: MainWindow) -> list[str]:
    tabs = window.output_pane.tabs
    return [tabs.tabText(i) for i in range(tabs.count()) if tabs.isTabVisible(i)]


def test_tabs_appear_with_their_content_and_the_one_that_matters_comes_forward(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    table = _ROWS.format(base=1)
    window = make_window(ScriptedModel(["```python\nprint(6 * 7)\n```", table, "```python\nprint(1 / 0)\n```"]))
    pane = window.output_pane
    assert _visible_tabs(window) == ["Output", "Working", "Step through", "Variables"]
    window.question.setPlainText("What is 6 times 7?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert _visible_tabs(window) == ["Output", "Working", "Step through", "Variables"]
    window.question.setPlainText("List every expense from March 2024 as a table")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert "Table" in _visible_tabs(window) and pane.tabs.currentWidget() is pane.table_view
    assert window.answer.text() == "30 rows — see Table"
    listed = window.history_panel.list.item(0).text()
    assert "→ 30 rows — see Table" in listed and "datetime" not in listed  # the history says it the same way
    window.question.setPlainText("What is one divided by zero?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert "Table" not in _visible_tabs(window)  # the last solve's table went with it
    assert pane.tabs.currentWidget() is pane.output and "ZeroDivisionError" in pane.output.toPlainText()


def test_small_acknowledgements(qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    """Copy says it copied, a search that finds nothing says so, Esc says it is cancelling."""
    monkeypatch.setattr(QMessageBox, "exec", lambda _box: QMessageBox.StandardButton.Yes)  # never a modal hang
    window = make_window(ScriptedModel(["```python\nimport time\ntime.sleep(20)\nprint(1)\n```"]))
    window.output_pane.show_answer("42")
    window.output_pane.copy_answer_button.click()
    assert window.status_label.text() == "Copied the answer."
    window.history_panel.search.setText("no such solve anywhere")
    assert window.history_panel.list.count() == 1
    assert window.history_panel.list.item(0).text().startswith("No past solve matches")
    window.history_panel.list.itemClicked.emit(window.history_panel.list.item(0))  # a note: nothing opens
    window.history_panel.search.clear()
    window.question.setPlainText("Wait, then print one")
    with qtbot.waitSignal(
        window.controller.events.published, timeout=30_000, check_params_cb=event_of(ProgramExtracted)
    ):
        window.solve()
    qtbot.waitUntil(lambda: window.controller.is_busy, timeout=5_000)
    window.cancel()
    assert window.status_label.text() == "Cancelling…"
    qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=5_000)


def test_a_different_question_clears_the_old_answer_vote_and_explanation(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    twelve = "```python\nprice = 4\nprint(price * 3)\n```"
    window = make_window(ScriptedModel([twelve] * 5))
    window.question_pane.pick_method("sc-pal")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    window.program_pane.explained(1, "the price of one pen")
    window.program_pane.explanation.setVisible(True)
    assert window.answer.text() == "$12.00" and window.output_pane.votes.isVisible()
    window.question.setPlainText("Three pens at $4: how much?")  # the same question: nothing goes
    assert window.answer.text() == "$12.00"
    window.question.setPlainText("Five pens at $4: how much?")
    assert window.answer.text() == "—" and not window.output_pane.votes.isVisible()
    assert not window.program_pane.explanation.isVisible() and window.output_pane.samples.count() == 0
    assert "Programs" not in _visible_tabs(window)
    assert window.editor.toPlainText().startswith("price = 4")  # the program stays, to be reused


def test_an_answer_to_a_question_edited_while_it_was_solved_says_so(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen in the window: the next question typed while a long vote ran, then "17 hours" appeared
    under it — the answer to the question before, with nothing to say so."""
    slow = ScriptedModel(["```python\nprice = 4\nprint(price * 3)\n```"], chunk_size=2, chunk_delay_s=0.02)
    window = make_window(slow)
    window.question_pane.pick_method("pal")
    window.question.setPlainText("Three pens at $4: how much?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
        window.question.setPlainText("Five pens at $4: how much?")  # typed while it is being solved
    assert window.answer.text() == "$12.00"
    assert window.status_label.text().endswith(EDITED_WHILE_SOLVING), window.status_label.text()
    window.question.setPlainText("Five pens at $4: how much? ")  # still another question: the old answer goes
    assert window.answer.text() == "—"


def test_a_first_start_without_a_saved_layout_fits_the_screen_once_shown(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 150 % the window opened 1,591 px wide on a 1366 px screen: its size was fitted before
    it was shown, when its widgets still measured wider. Now it is fitted again once shown."""
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))
    window = make_window(ScriptedModel([]))  # shown by the fixture, never reset by the test
    qtbot.waitUntil(lambda: window.frameGeometry().width() <= 910, timeout=5_000)
    assert window.frameGeometry().height() <= 512


def test_a_question_with_nothing_to_calculate_gets_a_plain_note(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(
        ScriptedModel(['```python\nprint("William Shakespeare")\n```', "```python\nprint(6 * 7)\n```"])
    )
    window.question_pane.pick_method("pal")
    window.question.setPlainText("Who wrote Hamlet?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    note = window.output_pane.votes.text()
    assert note.startswith("PAL Studio is for questions that need calculation") and "William Shakespeare" in note
    window.question.setPlainText("What is six times seven?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert "need calculation" not in window.output_pane.votes.text()


def test_a_label_shows_a_panes_worth_and_keeps_the_rest_in_its_tooltip(qtbot: QtBot) -> None:
    """A vote line of hostile output was 3,500 characters of word-wrapped label: each relayout of
    the window laid it all out again (the hostile UI-latency benchmark: 69–83 ms gaps, 37–64 after)."""
    label = Label(wrap=True)
    qtbot.addWidget(label)
    line = "Vote of 3 programs: " + "<b>x</b> " * 400
    label.setText(line)
    assert len(label.text()) == Label.SHOWN_CHARS and label.text() == line[: Label.SHOWN_CHARS - 1] + "…"
    assert html.unescape(label.toolTip()).endswith(line[: TIP_CHARS - 1][-20:] + "…</p>")  # markup shown, not read
    label.setText("short")
    assert label.text() == "short" and label.toolTip() == ""  # not the earlier text's tooltip
    label.setToolTip("the caller's own")
    label.setText("other")
    assert label.toolTip() == "the caller's own"


def test_the_status_message_keeps_room_on_a_narrow_bar(qtbot: QtBot, make_window: WindowMaker) -> None:
    """At 150 % on a laptop the three labels on the right painted over "answered (21.2 s)"."""
    window = make_window(ScriptedModel([]))
    window.show()
    window.resize(900, 600)
    bar = window.statusBar()
    status = window.status
    labels = (status.model_label, status.speed_label, status.isolation_label)
    for label in labels:
        label.setText("3 methods, 209 tokens in 21 s, context 233/4096 " * 2)
    qtbot.waitUntil(lambda: bar.width() <= 900)
    # The message is painted left of the first label: two fifths of the bar at least stay its own.
    qtbot.waitUntil(lambda: min(label.x() for label in labels) >= 2 * bar.width() // 5 - 10)


def test_a_status_message_too_long_for_the_bar_ends_in_an_ellipsis(qtbot: QtBot, make_window: WindowMaker) -> None:
    """Seen at 1366 px: "… edited since (Ctrl+Enter solv" cut mid-word against the model's label."""
    window = make_window(ScriptedModel([]))
    window.resize(900, 600)
    bar, status = window.statusBar(), window.status
    text = "answered (8.6 s)" + EDITED_WHILE_SOLVING
    status.show(text)

    def shown() -> str:  # what the label shows, not its whole text
        return QLabel.text(status.message)

    qtbot.waitUntil(lambda: shown().endswith("…"))
    first = min(label.x() for label in (status.model_label, status.speed_label, status.isolation_label))
    assert shown().startswith("answered (8.6 s) — for the question")
    assert status.message.x() + bar.fontMetrics().horizontalAdvance(shown()) <= first
    assert window.status_label.text() == text  # whole beside the answer
    status.show("Ready.")
    assert shown() == "Ready."


def test_a_status_label_too_narrow_for_its_text_says_so_and_keeps_it_whole(
    qtbot: QtBot, make_window: WindowMaker
) -> None:
    """Seen at 150 % (and at 100 % beside a long model name): "… context 285/" clipped mid-figure."""
    window = make_window(ScriptedModel([]))
    window.show()
    window.resize(900, 600)
    status = window.status
    whole = "6 methods, 20.9 tokens/s, context 4389/8192"
    status.speed_label.setText(whole)
    qtbot.waitUntil(lambda: QLabel.text(status.speed_label) not in ("", whole))  # laid out, too narrow
    shown = QLabel.text(status.speed_label)
    assert shown.endswith("…") and whole.startswith(shown[:-1]) and len(shown) > 4
    assert status.speed_label.text() == whole and status.speed_label.toolTip() == whole
    window.resize(1900, 600)
    qtbot.waitUntil(lambda: QLabel.text(status.speed_label) == whole)
    assert status.speed_label.toolTip() == ""  # nothing cut: nothing more to see
    status.model_label.setText("model: Qwen2.5 Coder 1.5B Instruct GGUF (qwen2, 1.5B, Q4_K_M) " * 3)
    qtbot.waitUntil(lambda: "…" in QLabel.text(status.model_label)[8:-8])  # cut in the middle
    assert QLabel.text(status.model_label).endswith("Q4_K_M) ")  # the quantisation stays in view
    window.isolation_label.setToolTip("the layers")
    window.isolation_label.setText("sandbox: strong · native" * 20)
    assert window.isolation_label.toolTip() == "the layers"  # its owner's tooltip stays


def test_the_working_tab_while_trying_with_a_practice_tally_fits_a_small_screen(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen at 150 %: the tally wrapped to two lines under the working box and the window grew
    taller than the screen (Run and Copy answer off it). Trying, the tally and the box together fit."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))
    window.work.tallied({"right": 12, "wrong": 30, "revealed": 4}, [])
    view = window.output_pane.working
    view.show_steps([], try_answer="5")
    window.output_pane.tabs.setCurrentWidget(view)
    window.reset_layout()
    qtbot.wait(50)
    assert view.tally.isVisible() and view.try_box.isVisible()
    assert window.minimumSizeHint().height() <= 512 - 30, window.minimumSizeHint()
    assert window.height() <= 512
    view.open_my_working()
    qtbot.wait(50)
    # beside the box, not a row under it: the steps had 141 of 512 px with it under, now 169
    assert view.tally.y() < view.my_working.y() + view.my_working.height(), (view.tally.y(), view.my_working.y())
    assert window.minimumSizeHint().height() <= 512 - 30, window.minimumSizeHint()


def test_the_working_box_keeps_the_steps_room_until_it_is_asked_for(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen at 150 % on a 768 px screen: two steps of the worked solution showed at a time, the
    empty working box and its buttons beside it taking the room under them."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))
    view = window.output_pane.working
    view.offer_checks()  # as after a solve
    window.output_pane.tabs.setCurrentWidget(view)
    window.reset_layout()
    qtbot.wait(50)
    closed, buttons = view.area.height(), view.check_working_button.y()
    assert view.my_working.isHidden() and view.another_button.y() == buttons  # one row of two buttons
    assert window.minimumSizeHint().width() <= 910, window.minimumSizeHint()  # the row fits the pane
    view.check_working_button.click()
    qtbot.wait(50)
    assert not view.my_working.isHidden() and view.my_working.hasFocus()
    assert view.another_button.y() > view.check_working_button.y()  # a column beside the box
    assert closed >= view.area.height() + 40, (closed, view.area.height())


def test_many_notes_under_the_answer_scroll_rather_than_make_the_window_taller(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen at 150 % in a 768 px screen: a second round's vote line and notes (eight lines) made
    the window 17 px taller, towards the screen's bottom; each further note would add more."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))  # 1366×768 at 150 %
    window.reset_layout()
    pane = window.output_pane
    pane.votes.setText("Vote of chain of thought, PAL and 3 more chains of thought: 6 ×4, 5.94 ×1")
    pane.votes.setVisible(True)
    qtbot.wait(50)
    before, line = window.minimumSizeHint().height(), pane.votes.fontMetrics().lineSpacing()
    height = window.frameGeometry().height()
    notes_text = (f"Note {n}: the methods disagreed, so chain of thought reasoned again" for n in range(12))
    pane.votes.setText("\n".join(notes_text))
    qtbot.wait(50)
    assert window.minimumSizeHint().height() <= before + 5 * line, (before, window.minimumSizeHint())
    notes = _scroll_area_of(pane.votes)
    assert isinstance(notes, ScrolledLabel) and notes.verticalScrollBar().maximum() > 0  # the rest is a scroll away
    assert window.frameGeometry().height() == height <= 512, window.frameGeometry()  # not a pixel taller
    pane.votes.setVisible(False)
    assert not notes.isVisibleTo(pane)  # no empty room where the notes were


def test_the_history_shown_where_it_has_no_room_floats_rather_than_widening_the_window(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 150 % on 1366 px the history starts hidden, and only Ctrl+H or Ctrl+F brought it back —
    beside the panes, pushing the window's answer column past the screen's right edge."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))  # 1366×768 at 150 %
    window.reset_layout()
    qtbot.wait(50)
    assert not window.history_panel.isVisible()
    assert [action.text() for action in window.menuBar().actions()] == ["&View", "&Help"]
    window.menus.view.aboutToShow.emit()
    history = window.menus.history
    assert history.text() == "&History\tCtrl+H" and history.isCheckable() and not history.isChecked()
    history.trigger()  # View → History
    qtbot.wait(50)
    assert window.history_panel.isVisible() and window.history_panel.isWindow()  # in a window of its own
    assert window.frameGeometry().width() <= 910 and window.output_pane.isVisible()
    window.menus.view.aboutToShow.emit()
    assert history.isChecked()
    window.layout_keeper.toggle_history()  # Ctrl+H hides it again
    assert not window.history_panel.isVisible()
    window.reset_layout()  # View → Reset layout: back beside the panes (hidden: still no room)
    assert not window.history_panel.isWindow() and window.splitter.indexOf(window.history_panel) == 0
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(1920, 1080))
    window.layout_keeper.search_history()  # Ctrl+F on a wide screen: beside the panes
    assert window.history_panel.isVisible() and not window.history_panel.isWindow()


def test_the_steps_position_reads_on_one_line_at_150_percent(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen at 150 % on 1366×768: "step 1 of 5: about to run line 2" beside the step buttons took
    five lines of the Step through tab; on a row of its own under them it takes one."""
    window = make_window(ScriptedModel([]))
    monkeypatch.setattr(MainWindow, "screen", lambda _self: Screen(910, 512))
    window.reset_layout()
    window.editor.setPlainText("distance = 150\ntime = 2\nspeed = distance / time\nprint(speed)")
    window.trace_program()
    stepper = window.output_pane.stepper
    qtbot.waitUntil(lambda: stepper.slider.maximum() > 0, timeout=30_000)
    qtbot.wait(50)
    assert stepper.position.text().startswith("step 1 of ")
    assert stepper.position.height() <= 2 * stepper.position.fontMetrics().lineSpacing(), stepper.position.height()
