"""Crash safety: work is autosaved and offered back after any unclean exit; crashes leave reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.store.history import History
from app.ui import crash
from models.testing import ScriptedModel

from .conftest import WindowMaker

REPO = Path(__file__).resolve().parents[3]


def test_a_crash_keeps_the_work_and_writes_a_report(make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []

    def show(box: QMessageBox) -> int:
        shown.append(box.detailedText())
        return 0

    monkeypatch.setattr(QMessageBox, "exec", show)
    window = make_window(ScriptedModel([]))
    window.question.setPlainText("my unsaved question")
    window.editor.setPlainText("x = 1  # my unsaved edit")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        kind, error, tb = sys.exc_info()
        assert kind is not None and error is not None
        report = crash.handle_crash(
            window, window.current_work, kind, error, tb, recovery=window.recovery_path, logs=window.paths.log_folder
        )
    assert report is not None and report.parent == window.paths.log_folder
    assert "RuntimeError: boom" in report.read_text()
    assert shown and "RuntimeError: boom" in shown[0]
    saved = crash.recovered_work(window.recovery_path)
    assert saved is not None and saved["question"] == "my unsaved question"
    assert saved["program"] == "x = 1  # my unsaved edit"


def test_work_left_by_an_unclean_exit_is_offered_and_restored(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    work = {
        "question": "my unsaved question", "program": "x = 1  # my unsaved edit", "answer": "7", "output": "7",
        "working": "3 x 4 = 12\n12 - 5 = 7",
    }  # fmt: skip
    crash.save_work(work, tmp_path / "recovery.json")
    window = make_window(ScriptedModel([]))
    assert window.restore_bar.isVisible() and "my unsaved question" in window.restore_bar.message.text()
    assert window.question.toPlainText() == ""  # offered, not imposed
    qtbot.mouseClick(window.restore_bar.restore_button, Qt.MouseButton.LeftButton)
    assert window.question.toPlainText() == "my unsaved question"
    assert window.editor.toPlainText() == "x = 1  # my unsaved edit"
    assert window.answer.text() == "7"
    working = window.output_pane.working.my_working
    assert working.toPlainText() == "3 x 4 = 12\n12 - 5 = 7" and not working.isHidden()  # the box open, holding it
    assert "Restored" in window.status_label.text()
    assert not window.restore_bar.isVisible()


def test_work_is_autosaved_as_it_changes_and_removed_on_a_clean_exit(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    window.question.setPlainText("How many apples?")
    window.editor.setPlainText("print(3 + 4)")
    qtbot.waitUntil(window.recovery_path.exists, timeout=5000)
    saved = json.loads(window.recovery_path.read_text())
    assert saved["question"] == "How many apples?" and saved["program"] == "print(3 + 4)"
    window.output_pane.working.my_working.setPlainText("3 + 4 = 7")  # the student's own working is work too
    qtbot.waitUntil(lambda: json.loads(window.recovery_path.read_text()).get("working") == "3 + 4 = 7", timeout=5000)
    window.close()
    assert not window.recovery_path.exists()


def test_an_open_offer_is_never_overwritten_and_discard_removes_it(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    crash.save_work({"question": "the lost question", "program": "ans = 1"}, tmp_path / "recovery.json")
    window = make_window(ScriptedModel([]))
    assert window.restore_bar.isVisible()
    window.question.setPlainText("typed before answering the offer")
    qtbot.wait(1200)  # longer than the autosave delay
    assert crash.recovered_work(window.recovery_path) == {"question": "the lost question", "program": "ans = 1"}
    qtbot.mouseClick(window.restore_bar.discard_button, Qt.MouseButton.LeftButton)
    assert not window.restore_bar.isVisible()
    saved = window.recovery_path
    qtbot.waitUntil(lambda: saved.exists() and "typed before" in saved.read_text(), timeout=5000)


_KILLED_APP = """
import os, signal, sys, time
from pathlib import Path
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtWidgets import QApplication
from app.ui import crash
from tests.app.ui.conftest import private_window
from models.testing import ScriptedModel
folder = Path(sys.argv[1])
app = QApplication([])
crash.enable_native_crash_log(folder / "logs")
window = private_window(lambda _p: ScriptedModel([]), folder)
window.show()
window.question.setPlainText("a question typed just before the crash")
deadline = time.monotonic() + 20
while not window.recovery_path.exists() and time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.02)
window.controller.history.start("solving when the process died", "pal", {})
if sys.argv[2] == "segfault":
    import faulthandler
    faulthandler._sigsegv()
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize("how", ["kill", "segfault"])
def test_after_a_kill_or_native_crash_the_next_start_offers_the_work(
    make_window: WindowMaker, tmp_path: Path, how: str
) -> None:
    """A real process dies without any chance to clean up; the next window offers what it had."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", _KILLED_APP, str(tmp_path), how], env=env, timeout=120, check=False)
    assert done.returncode in (-9, -11), done
    report = crash.collect_native_crash_report(tmp_path / "logs")
    if how == "segfault":
        assert report is not None and "Fatal Python error: Segmentation fault" in report.read_text()
    else:
        assert report is None  # a kill leaves no stack, only the autosave
    window = make_window(ScriptedModel([]))
    assert "a question typed just before the crash" in window.restore_bar.message.text()
    entry = History(tmp_path / "history.sqlite").entries()[0]
    assert entry.question == "solving when the process died" and entry.status == "interrupted"


def test_a_program_streaming_without_pause_is_saved_as_it_arrives(qtbot: QtBot, make_window: WindowMaker) -> None:
    """The autosave waited for a pause in the changes, and a streamed program never pauses: a kill
    mid-solve left an empty program. Now changes without a pause are saved every 2 s."""
    window = make_window(ScriptedModel([]))
    window.program_pane.append("```python\n")
    saved: list[str] = []
    for n in range(40):  # 4 s of tokens, 100 ms apart
        window.program_pane.append(f"x{n} = {n}\n")
        qtbot.wait(100)
        if window.recovery_path.exists():
            saved.append(json.loads(window.recovery_path.read_text())["program"])
    assert saved and "x1 = 1" in saved[-1], "nothing of the streamed program was saved while it streamed"


def test_the_method_comes_back_and_a_chosen_close_is_not_called_a_crash(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    from app.ui.work_keeper import CLOSED_MID_SOLVE

    work = {"question": "my question", "program": "print(1)", "method": "sc-pal", CLOSED_MID_SOLVE: "1"}
    crash.save_work(work, tmp_path / "recovery.json")
    window = make_window(ScriptedModel([]))
    text = window.restore_bar.message.text()
    assert text.startswith("You closed PAL Studio while it was solving") and "not close normally" not in text
    qtbot.mouseClick(window.restore_bar.restore_button, Qt.MouseButton.LeftButton)
    assert window.method.currentData() == "sc-pal" and window.editor.toPlainText() == "print(1)"


def test_a_method_choice_alone_is_not_work_to_restore(tmp_path: Path) -> None:
    """Seen in a real window: killed with only a data file opened, the next start offered to
    restore "a program" — the autosave held the picked method and counted it as work."""
    saved = tmp_path / "recovery.json"
    saved.write_text(json.dumps({"question": "", "program": "", "method": "sc-pal", "data_file": ""}))
    assert crash.recovered_work(saved) is None
    saved.write_text(json.dumps({"question": "", "program": "", "method": "sc-pal", "data_file": "/d/wetter.csv"}))
    assert crash.recovered_work(saved) == {
        "question": "",
        "program": "",
        "method": "sc-pal",
        "data_file": "/d/wetter.csv",
    }


def test_a_crash_log_that_goes_while_it_is_read_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen starting two windows at once: the second failed with FileNotFoundError — the first
    had ended and removed its empty log between the second's listing and reading it."""
    gone = tmp_path / crash._NATIVE_LOG.format(pid=999_999_999)  # no such process
    gone.write_text("")
    kept = tmp_path / crash._NATIVE_LOG.format(pid=999_999_998)
    kept.write_text("Fatal Python error: Segmentation fault\n")
    stat = Path.stat

    def vanishing(path: Path, **options: bool) -> os.stat_result:
        if path == gone:
            path.unlink(missing_ok=True)
        return stat(path, **options)

    monkeypatch.setattr(Path, "stat", vanishing)
    found = crash.collect_native_crash_report(tmp_path)
    assert found is not None and "Segmentation fault" in found.read_text()
    assert not gone.exists() and not kept.exists()
