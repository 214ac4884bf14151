"""The window fits laptop screens: its default size, its minimum, long texts, 150 % scaling."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from pytestqt.qtbot import QtBot

from app.ui.main_window import MainWindow
from models.testing import ScriptedModel

from .conftest import WindowMaker


class _Screen:
    def __init__(self, width: int, height: int) -> None:
        self._geometry = QRect(0, 0, width, height)

    def availableGeometry(self) -> QRect:  # noqa: N802 (Qt's name)
        return self._geometry


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
    monkeypatch.setattr(MainWindow, "screen", lambda _self: _Screen(width, height))
    window.reset_layout()
    qtbot.wait(50)
    geometry = window.frameGeometry()
    assert geometry.width() <= width and geometry.height() <= height, geometry
    assert geometry.left() >= 0 and geometry.top() >= 0
    assert window.output_pane.isVisible() and window.output_pane.width() > 200  # the answer column is there
    shot = window.grab()
    assert shot.save(str(tmp_path / f"window-{width}x{height}.png"))
    assert shot.width() <= width


def test_the_minimum_size_fits_a_small_laptop(make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    minimum = window.minimumSizeHint()
    assert minimum.width() <= 1024 and minimum.height() <= 700, minimum


def test_long_texts_do_not_widen_the_window(qtbot: QtBot, make_window: WindowMaker) -> None:
    window = make_window(ScriptedModel([]))
    before = window.width()
    window._show_status("The program failed: " + "a very long error message " * 80)
    window.output_pane.show_answer("1234567890" * 40)
    window.model_label.setText("model: " + "a model with a very long name " * 10)
    window.output_pane.stepper.position.setText("step 3 of 9: " + "x = x + 1; " * 60)
    qtbot.wait(50)
    assert window.width() == before
    assert window.minimumSizeHint().width() <= 1024
