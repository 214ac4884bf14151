"""The composition root of the desktop app: `compose` builds the history, the sandbox, the
controller and the window from one `AppPaths` and hands each what it needs; `run` starts the app,
or renders it offscreen to a PNG (`--screenshot`)."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.model_loading import load_model
from app.paths import AppPaths
from app.settings import Settings
from app.store import settings as settings_store
from app.store.history import History
from app.store.speeds import Speeds
from app.ui import crash, single_instance
from app.ui.controller import ModelFactory, SolveController
from app.ui.keyboard import FOCUS_RING
from app.ui.main_window import MainWindow
from app.ui.welcome import is_first_run
from models.types import LanguageModel
from sandbox import Sandbox


def model_for(settings: Settings) -> ModelFactory:
    """A factory that loads the model the settings name (the embedded one is assembled first if needed)."""

    def load(progress: Callable[[int, int], None]) -> LanguageModel:
        return load_model(
            backend_url=settings.backend_url, model_path=Path(settings.model_path) if settings.model_path else None,
            n_ctx=settings.n_ctx, n_threads=settings.n_threads, n_gpu_layers=settings.n_gpu_layers, progress=progress,
        )  # fmt: skip

    return load


def embedded_model(progress: Callable[[int, int], None]) -> LanguageModel:
    """The embedded model with default settings."""
    return model_for(Settings())(progress)


def compose(
    paths: AppPaths,
    *,
    model_factory: ModelFactory | None = None,
    factory_for: Callable[[Settings], ModelFactory] = model_for,
    sandbox: Sandbox | None = None,
    show_welcome: bool = False,
    crash_report: Path | None = None,
) -> MainWindow:
    """The app's window with everything it needs, every file under `paths`; the model starts
    loading (from `model_factory`, else the one the saved settings name)."""
    application = QApplication.instance()
    if isinstance(application, QApplication) and FOCUS_RING not in application.styleSheet():
        # Set before any widget is built: a style sheet set on a built window changed its panes' sizes.
        application.setStyleSheet(application.styleSheet() + FOCUS_RING)
    settings = settings_store.load(paths.settings)
    history = History(paths.history)
    history.mark_interrupted()  # a solve still "running" in the file was cut off by a crash or kill
    if sandbox is None:
        sandbox = Sandbox(backend=settings.sandbox, cache_dir=str(paths.wasm_cache))
    controller = SolveController(
        sandbox, history, solve_log=paths.solve_log, settings_path=paths.settings, speeds=Speeds(paths.speeds),
        settings=settings, factory_for=factory_for,
    )  # fmt: skip
    window = MainWindow(controller, paths=paths, show_welcome=show_welcome, crash_report=crash_report)
    controller.load_model(model_factory or factory_for(settings))
    return window


def run(
    paths: AppPaths,
    *,
    screenshot: Path | None = None,
    question: str | None = None,
    solve: bool = False,
    step_through: bool = False,
) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("PAL Studio")
    app.setApplicationName("PAL Studio")
    name = single_instance.server_name(paths.data)
    if screenshot is None and single_instance.handed_over(name):
        print("PAL Studio is already open on this computer: its window has been brought to the front.")
        return 0
    native_report = crash.enable_native_crash_log(paths.log_folder)
    window = compose(paths, show_welcome=is_first_run(paths.first_run_marker), crash_report=native_report)
    if screenshot is None:
        single_instance.FirstWindow(name, window)
    crash.install(window, window.current_work, recovery=paths.recovery, logs=paths.log_folder)
    if question:
        window.question.setPlainText(question)
    window.show()
    if screenshot is not None:
        window.reset_layout()  # the same picture whatever the user's saved layout
        _capture_when_done(window, screenshot, solve=solve and bool(question), step_through=step_through)
    status = int(app.exec())
    close = getattr(window.controller.model, "close", None)
    if callable(close):
        close()
    # Release the window (the crash hook holds it) and what it owns now, while the interpreter is
    # whole: finalizers left to interpreter teardown (llama.cpp's) find `sys` gone and complain.
    sys.excepthook = sys.__excepthook__
    del window
    gc.collect()
    crash.close_native_crash_log(paths.log_folder)
    return status


def _capture_when_done(window: MainWindow, path: Path, *, solve: bool, step_through: bool) -> None:
    def capture() -> None:
        window.grab().save(str(path))
        window.close()

    def later() -> None:
        QTimer.singleShot(300, capture)

    def after_solve() -> None:
        work = window.work
        if work.origin == "solve" and step_through:  # then record a trace and show a step half way through
            window.trace_program()
        elif work.origin == "run" and work.trace:
            window.stepper.slider.setValue(window.stepper.slider.maximum() // 2)
            later()
        elif not step_through:
            later()

    if solve:
        window.controller.model_ready.connect(lambda _name: window.solve())
        window.work.solution_changed.connect(lambda _solution: after_solve())
    else:
        window.controller.model_ready.connect(lambda _name: later())
    window.controller.model_failed.connect(lambda _message: later())
