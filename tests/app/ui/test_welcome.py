"""First run: the welcome guide with a real (small) model assembly, isolation in words, a sample."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.paths import AppPaths
from app.ui.events import LoadProgress
from app.ui.plain import Label
from app.ui.welcome import SAMPLE, is_first_run
from models.assembly import assemble
from models.testing import ScriptedModel

from .conftest import on_event, private_window


def test_first_run_guides_and_then_stays_away(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAL_STUDIO_DATA_DIR", str(tmp_path / "data"))
    parts = [bytes([n]) * 3_000_000 for n in range(4)]
    chunks = []
    for i, part in enumerate(parts):
        chunks.append(tmp_path / f"part{i}.bin")
        chunks[-1].write_bytes(part)
    whole = b"".join(parts)

    def factory(progress: Callable[[int, int], None]) -> ScriptedModel:
        def slow_progress(done: int, total: int) -> None:
            progress(done, total)
            time.sleep(0.05)  # as a laptop disk would be

        sha = hashlib.sha256(whole).hexdigest()
        assemble(chunks, tmp_path / "data" / "models" / "m.gguf", size=len(whole), sha256=sha, progress=slow_progress)
        return ScriptedModel(["```python\nprint(24 - 3 * 6)\n```"], name="tiny model")

    assert is_first_run(AppPaths(tmp_path).first_run_marker)
    window = private_window(factory, tmp_path, show_welcome=True)
    qtbot.addWidget(window)
    welcome = window.welcome
    # Shown after the main window (before it, a window manager put it behind), never modal.
    assert welcome is not None and not welcome.isVisible() and not welcome.isModal()
    seen: list[int] = []
    on_event(window, LoadProgress, lambda progress: seen.append(progress.done))
    with qtbot.waitSignal(window.controller.model_ready, timeout=30_000):
        window.show()
    qtbot.waitUntil(welcome.isVisible, timeout=5_000)
    assert welcome.width() <= welcome.fontMetrics().averageCharWidth() * 60 + 40  # a readable line length
    intro = welcome.findChildren(Label)[0]
    assert intro.height() >= intro.heightForWidth(intro.width())  # every wrapped line shows
    assert len(seen) >= 2 and seen[-1] == len(whole)
    assert welcome.model_status.text() == "Model ready: tiny model"
    assert welcome.isolation.text().startswith("Isolation of programs — Strong")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        welcome.sample_button.click()
    assert window.question.toPlainText() == SAMPLE and window.answer.text() == "6"
    assert not welcome.isVisible()
    assert not is_first_run(AppPaths(tmp_path).first_run_marker)
    window.close()
