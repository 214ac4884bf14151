"""The composition root: a window built from `AppPaths(folder)` keeps every file it writes in that
folder — the user's own data, settings, layout, logs and autosave are never touched."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.paths import AppPaths
from app.settings import Settings
from models.testing import ScriptedModel

from .conftest import private_window


def test_a_window_on_private_paths_never_touches_the_users_files(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user"  # where this user's real folders would be
    # Where this user's PAL Studio files would go (libraries' caches, matplotlib's fonts, are not ours).
    for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(variable, str(user / variable.lower()))
    monkeypatch.setenv("PAL_STUDIO_DATA_DIR", str(user / "pal-data"))
    monkeypatch.setenv("PAL_STUDIO_LOG_DIR", str(user / "pal-logs"))
    private = tmp_path / "private"
    paths = AppPaths(private)

    window = private_window(
        lambda _progress: ScriptedModel(["```python\nprint(24 - 3 * 6)\n```"]), private, show_welcome=True
    )
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.controller.model_ready, timeout=30_000):
        window.show()
    window.question.setPlainText("A baker made 24 muffins and sold 3 boxes of 6. How many are left?")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.solve()
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    qtbot.waitUntil(paths.recovery.exists, timeout=5000)  # the autosave
    window.apply_settings(Settings(time_s=7.0))
    assert window.welcome is not None
    window.welcome.done(0)
    window.close()

    assert not user.exists() or [p for p in user.rglob("*") if p.is_file()] == []
    written = {p.relative_to(private).as_posix() for p in private.rglob("*") if p.is_file()}
    assert {"history.sqlite", "window.ini", "settings.json", "first-run-done", "logs/solves.jsonl"} <= written
    assert '"time_s": 7.0' in paths.settings.read_text(encoding="utf-8")
