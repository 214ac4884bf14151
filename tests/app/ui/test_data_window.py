"""A data file in the window: opened by button or drop, described in the Question pane, computed
over by the program in the real sandbox, rows shown as a table (with a chart when asked) and
exported as CSV; a bad file is refused in words (real widgets, real sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from pytestqt.qtbot import QtBot

from app.ui import exporting
from app.ui.data_files import DataFiles
from app.ui.events import DataOpened, DataRefused
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import WindowMaker, event_of

GROUPED = (
    "```python\ntotals = {}\nfor r in tables['sales']:\n"
    "    totals[r['region']] = totals.get(r['region'], 0) + r['units']\n"
    "result = [{'region': k, 'units': v} for k, v in sorted(totals.items())]\n"
    "print(result)\n```"
)


@pytest.fixture
def sales(tmp_path: Path) -> Path:
    path = tmp_path / "sales.csv"
    rows = [(("north", "south", "east")[n % 3], n % 7) for n in range(90)]
    path.write_text("region,units\n" + "".join(f"{r},{u}\n" for r, u in rows))
    return path


def _open(qtbot: QtBot, window: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(window.controller.events.published, timeout=10_000, check_params_cb=event_of(DataOpened)):
        window.open_data_file(path)


def test_a_question_over_a_data_file_gives_a_table_and_a_chart(
    qtbot: QtBot, make_window: WindowMaker, sales: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(ScriptedModel([GROUPED]))
    _open(qtbot, window, sales)
    pane = window.question_pane
    assert pane.data_label.isVisible() and "sales: 90 rows × 2 columns" in pane.data_label.text()
    assert not window.table.isVisible()  # a data file or a pasted table, not both
    window.question.setPlainText("Units per region as a bar chart")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    view = window.output_pane.table_view
    assert window.tabs.currentWidget() is view
    first = view.table.item(0, 0)
    assert view.table.rowCount() == 3 and first is not None and first.text() == "east"
    qtbot.waitUntil(view.chart.isVisible, timeout=30_000)  # the question asked for a chart (drawn off the UI thread)
    target = tmp_path / "out.csv"
    monkeypatch.setattr(exporting, "csv_path", lambda _parent: target)
    view.export_button.click()
    units = {r: sum(n % 7 for n in range(90) if ("north", "south", "east")[n % 3] == r) for r in ("east", "north")}
    assert target.read_text().splitlines()[:3] == ["region,units", f"east,{units['east']}", f"north,{units['north']}"]


def test_a_hand_run_reads_the_data_too(qtbot: QtBot, make_window: WindowMaker, sales: Path) -> None:
    window = make_window(ScriptedModel([]))
    _open(qtbot, window, sales)
    window.editor.setPlainText("ans = len(tables['sales'])")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    assert window.answer.text() == "90"


def test_a_file_dropped_on_the_window_is_opened(qtbot: QtBot, make_window: WindowMaker, sales: Path) -> None:
    window = make_window(ScriptedModel([]))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(sales))])
    drop = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    with qtbot.waitSignal(window.controller.events.published, timeout=10_000, check_params_cb=event_of(DataOpened)):
        window.dropEvent(drop)
    assert "sales.csv" in window.question_pane.data_label.text()
    window.remove_data()
    assert not window.question_pane.data_label.isVisible() and window.table.isVisible()
    uci = [QUrl.fromLocalFile(str(sales.with_name("iris.data")))]  # the UCI repository's files have no header
    assert DataFiles.dropped(uci) == sales.with_name("iris.data")
    assert DataFiles.dropped([QUrl.fromLocalFile(str(sales.with_name("song.mp3")))]) is None
    ods = sales.with_name("budget.ods")  # dropped to be told what to do with it
    ods.write_bytes(b"PK\x03\x04" * 10)
    mime.setUrls([QUrl.fromLocalFile(str(ods))])
    with qtbot.waitSignal(window.controller.events.published, timeout=10_000, check_params_cb=event_of(DataRefused)):
        window.dropEvent(drop)
    assert (
        "OpenDocument spreadsheet" in window.status_label.text()
        and "save it as .xlsx or CSV" in window.status_label.text()
    )


def test_bad_files_and_methods_without_programs_are_refused_in_words(
    qtbot: QtBot, make_window: WindowMaker, sales: Path, tmp_path: Path
) -> None:
    window = make_window(ScriptedModel([]))
    (tmp_path / "wide.csv").write_text(",".join(f"c{n}" for n in range(10_000)) + "\n" + "1," * 9_999 + "1\n")
    with qtbot.waitSignal(window.controller.events.published, timeout=10_000, check_params_cb=event_of(DataRefused)):
        window.open_data_file(tmp_path / "wide.csv")
    assert "10,000 columns" in window.status_label.text()
    _open(qtbot, window, sales)
    window.question_pane.pick_method("cot")
    window.question.setPlainText("How many units?")
    window.solve()
    assert "need a program" in window.status_label.text() and not window.controller.is_busy


def test_a_second_look_that_fails_leaves_the_first_programs_output_on_screen(
    qtbot: QtBot, make_window: WindowMaker, sales: Path
) -> None:
    # seen in the window: the Output tab showed the error of the second look's program (the
    # prompt's example, rewritten) beside the first program and its failure
    pandas_style = "```python\nt = tables['sales']\nprint(t.groupby('region')['units'].sum()['north'])\n```"
    example = "```python\nprint(sum(r['units'] for r in tables['orders']))\n```"
    window = make_window(ScriptedModel([pandas_style, example]))
    _open(qtbot, window, sales)
    window.question.setPlainText("How many units did the north region sell?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    shown = window.output_pane.output.toPlainText()
    assert "no attribute 'groupby'" in shown and "KeyError: 'orders'" not in shown
    assert "t.groupby('region')" in window.editor.toPlainText()


def test_opening_data_under_a_method_without_programs_picks_programs_until_it_is_removed(
    qtbot: QtBot, make_window: WindowMaker, sales: Path
) -> None:
    window = make_window(ScriptedModel([]))
    window.question_pane.pick_method("mix")  # chain of thought among them: it cannot read rows
    _open(qtbot, window, sales)
    assert window.question_pane.method_name() == "pal"
    assert "Method set to" in window.status_label.text() and "only programs can read the data" in (
        window.status_label.text()
    )
    window.data_files.remove()
    assert window.question_pane.method_name() == "mix"  # the file's choice goes with the file
    assert "Method set back to Cross-checked" in window.status_label.text()
    window.question_pane.pick_method("pal+shots")
    _open(qtbot, window, sales)
    assert window.question_pane.method_name() == "pal+shots"  # a program method the user chose is kept
    window.data_files.remove()
    assert window.question_pane.method_name() == "pal+shots"


def test_the_method_a_data_file_chose_is_not_the_next_starts_method(
    qtbot: QtBot, make_window: WindowMaker, sales: Path
) -> None:
    """Seen in the real window: a question over a file saved its method (one program) as the
    user's; the next start, without the file, answered word problems unchecked."""
    window = make_window(ScriptedModel([GROUPED] * 6))
    window.question_pane.pick_method("mix")
    _open(qtbot, window, sales)
    window.question.setPlainText("Units per region")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert window._layout_store.value("solve/method") == "mix"  # what it was before the file
    window.question_pane.pick_method("sc-pal")  # chosen by the user, file open: that one is kept
    with qtbot.waitSignal(window.work.solution_changed, timeout=60_000):
        window.solve()
    assert window._layout_store.value("solve/method") == "sc-pal"


def test_the_question_pane_shows_exactly_what_the_model_is_told(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    path = tmp_path / "cars.csv"
    path.write_text("model;mpg;price;bought\nA;21,5;€12.500;03.01.2024\nB;NA;€9.900;15.02.2024\nC;30;€15.000;-\n")
    model = ScriptedModel(["```python\nans = 1\n```"])
    window = make_window(model)
    _open(qtbot, window, path)
    pane = window.question_pane
    assert pane.data_told_button.isVisible() and not pane.data_told.isVisible()  # folded until asked for
    pane.data_told_button.click()
    told = pane.data_told.toPlainText()
    assert pane.data_told.isVisible() and told
    assert "mpg (number; 1 of 3 missing)" in told and "price (integer; amounts in €)" in told
    assert "bought (datetime.date; 1 of 3 missing)" in told and "never count them as 0" in told
    window.question.setPlainText("What is the average mpg?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    assert told in model.calls[0]  # what the pane showed is what the prompt held


def test_the_rows_a_program_picks_are_its_table_answer(qtbot: QtBot, make_window: WindowMaker, sales: Path) -> None:
    """The most natural data program keeps the user's own rows (read-only dicts): before, they
    had no JSON copy, so the Table tab stayed empty."""
    picked = "```python\nresult = [r for r in tables['sales'] if r['units'] == 6]\nprint(len(result))\n```"
    window = make_window(ScriptedModel([picked]))
    _open(qtbot, window, sales)
    window.question.setPlainText("Which sales had 6 units?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    view = window.output_pane.table_view
    expected = sum(1 for n in range(90) if n % 7 == 6)
    assert window.tabs.currentWidget() is view and view.table.rowCount() == expected
    headers = [view.table.horizontalHeaderItem(i) for i in range(2)]
    assert [header.text() if header else "" for header in headers] == ["region", "units"]
