"""PySide6 6.12.0 lost a reference to None on every QPainter.setPen/setFont/fillRect call; the code
editor's gutter makes such calls on every repaint, so the interpreter aborted within minutes
("Fatal Python error: none_dealloc"). These tests fail on such a release."""

from __future__ import annotations

import gc
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from PySide6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from app.ui.code_editor import CodeEditor

_REPAINTS = 2000
_SLACK = 200  # ordinary allocation noise; the leak loses several references per repaint
_IMMORTAL = sys.version_info >= (3, 12)  # None/True/False are immortal there: the leak cannot free them


def _counts() -> tuple[int, int, int]:
    return sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)


@pytest.fixture(autouse=True)
def _no_collection_while_counting() -> Iterator[None]:
    """Garbage left by earlier tests, collected mid-loop, also lowers the counts (measured: by
    hundreds after the window tests); collect it first and hold the collector while counting."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


@pytest.mark.skipif(_IMMORTAL, reason="reference counts of None, True and False are fixed from Python 3.12 on")
def test_repainting_the_editor_and_its_gutter_keeps_reference_counts(qtbot: QtBot) -> None:
    editor = CodeEditor()
    qtbot.addWidget(editor)
    editor.setPlainText("\n".join(f"x{i} = {i}  # line {i}" for i in range(60)))
    editor.mark_error_line(3)
    editor.resize(500, 400)
    editor.show()
    qtbot.waitExposed(editor)
    gutter = editor._numbers
    editor.repaint()  # warm-up: fonts, caches
    before = _counts()
    for _ in range(_REPAINTS):
        gutter.repaint()
        editor.viewport().repaint()
    after = _counts()
    drift = [b - a for a, b in zip(before, after, strict=True)]
    assert all(abs(d) < _SLACK for d in drift), f"reference counts of None/True/False drifted by {drift}"


@pytest.mark.skipif(_IMMORTAL, reason="reference counts of None, True and False are fixed from Python 3.12 on")
def test_the_painter_calls_themselves_keep_reference_counts() -> None:
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    before = _counts()
    for _ in range(_REPAINTS):
        painter.setPen(QColor("#999999"))
        painter.setFont(painter.font())
        painter.fillRect(0, 0, 8, 8, QColor("#f3f3f3"))
    after = _counts()
    painter.end()
    drift = [b - a for a, b in zip(before, after, strict=True)]
    assert all(abs(d) < _SLACK for d in drift), f"reference counts of None/True/False drifted by {drift}"


def test_the_dependency_pin_excludes_the_leaking_release() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text())
    qt = [Requirement(d) for d in pyproject["project"]["dependencies"] if d.lower().startswith("pyside6")]
    assert qt, "no Qt dependency found"
    for requirement in qt:
        assert "6.12.0" not in requirement.specifier, f"{requirement} admits the leaking 6.12.0"
        assert "6.11.3" in requirement.specifier, f"{requirement} excludes 6.11.3, the release tested here"
