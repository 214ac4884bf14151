"""Crash safety: the work is saved first, a report is written, and the next start restores it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.reasoning.solve_log import log_dir
from app.ui import crash
from models.testing import ScriptedModel

from .conftest import WindowMaker


def test_a_crash_keeps_the_work_and_writes_a_report(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAL_STUDIO_DATA_DIR", str(tmp_path / "data"))
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
        report = crash.handle_crash(window, window.current_work, kind, error, tb)
    assert report is not None and report.parent == log_dir()
    assert "RuntimeError: boom" in report.read_text()
    assert shown and "RuntimeError: boom" in shown[0]
    window.close()

    again = make_window(ScriptedModel([]))
    assert again.question.toPlainText() == "my unsaved question"
    assert again.editor.toPlainText() == "x = 1  # my unsaved edit"
    assert "Restored" in again.status_label.text()
    assert crash.take_recovered_work() is None  # restored once only
