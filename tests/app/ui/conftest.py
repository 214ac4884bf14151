"""GUI test fixtures: real widgets offscreen, a private settings file, no threads left behind."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, QSettings
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.paths import AppPaths
from app.ui.app import compose
from app.ui.controller import ModelFactory
from app.ui.main_window import MainWindow
from models.testing import ScriptedModel
from models.types import LanguageModel
from sandbox import Sandbox

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

WindowMaker = Callable[..., MainWindow]  # (model, sandbox=None) -> an open window


def event_of(kind: type) -> Callable[[object], bool]:
    """For `qtbot.waitSignal(controller.events.published, check_params_cb=event_of(Kind))`."""
    return lambda event: isinstance(event, kind)


def on_event(window: MainWindow, kind: type[Any], handler: Callable[[Any], None]) -> None:
    """`handler` with each `kind` event the window's controller publishes."""
    window.controller.events.subscribe(kind, handler)


def private_window(
    factory: ModelFactory, folder: Path, *, sandbox: Sandbox | None = None, **options: Any
) -> MainWindow:
    """A main window whose settings, history and layout live in `folder`, not the user's, with
    PAL picked (tests script one PAL reply per solve; the default method makes three calls)."""
    layout = QSettings(str(AppPaths(folder).window_state), QSettings.Format.IniFormat)
    if layout.value("solve/method") is None:  # a method the user picked before is kept
        layout.setValue("solve/method", "pal")
        layout.sync()
    return compose(AppPaths(folder), model_factory=factory, sandbox=sandbox or Sandbox(), **options)


@pytest.fixture
def make_window(qtbot: QtBot, tmp_path: Path) -> Iterator[WindowMaker]:
    """Opens main windows on a given model; closes them after the test and checks for stray threads."""
    before = set(threading.enumerate())
    windows: list[MainWindow] = []

    def stop_work(window: QWidget) -> None:
        assert isinstance(window, MainWindow)
        if window.controller.is_busy:
            window.controller.cancel()
            qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=30_000)

    def make(model: LanguageModel, sandbox: Sandbox | None = None) -> MainWindow:
        window = private_window(
            lambda _progress: model,
            tmp_path,
            sandbox=sandbox,
            factory_for=lambda settings: lambda _progress: ScriptedModel([], name=f"reloaded {settings.n_ctx}"),
        )
        # pytest-qt closes it before this fixture's own teardown: a test that failed mid-solve
        # must not leave a modal "close?" to hang on, so what runs is stopped first.
        qtbot.addWidget(window, before_close_func=stop_work)
        with qtbot.waitSignal(window.controller.model_ready, timeout=60_000):
            window.show()
        windows.append(window)
        return window

    yield make
    for window in windows:
        stop_work(window)
        window.close()
    left = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    assert left == [], f"threads left running: {left}"


class Screen:
    """A screen of the given size in logical pixels (`MainWindow.screen` patched to return it)."""

    def __init__(self, width: int, height: int) -> None:
        self._geometry = QRect(0, 0, width, height)

    def availableGeometry(self) -> QRect:  # noqa: N802 (Qt's name)
        return self._geometry
