from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.settings import Settings
from app.store.settings import load, save


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    wanted = Settings(model_path="/m/x.gguf", n_threads=2, n_ctx=8192, n_gpu_layers=-1, temperature=0.3, time_s=9)
    save(wanted, path)
    assert load(path) == wanted


def test_missing_or_broken_files_give_defaults(tmp_path: Path) -> None:
    assert load(tmp_path / "none.json") == Settings()
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert load(broken) == Settings()
    invalid = tmp_path / "invalid.json"
    invalid.write_text('{"version": 1, "settings": {"n_ctx": 3, "unknown": 1}}')
    assert load(invalid) == Settings()


def test_validation() -> None:
    with pytest.raises(ValueError, match="temperature"):
        Settings(temperature=5)
    with pytest.raises(ValueError, match="sandbox"):
        Settings(sandbox="docker")
    assert Settings(sandbox="wasm").sandbox == "wasm"
    assert Settings(n_ctx=8192).model_differs(Settings())
    assert not Settings(temperature=0.5).model_differs(Settings())


def test_an_unversioned_file_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"time_s": 9.0, "n_ctx": 2048, "no_such_setting": 1}')  # version 0: flat, hand-written
    assert load(path) == Settings(time_s=9.0, n_ctx=2048)


def test_a_file_from_a_newer_version_is_read_as_far_as_known(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"version": 99, "settings": {"time_s": 3.0, "a_future_setting": true}}')
    assert load(path) == Settings(time_s=3.0)


def test_a_saved_file_carries_the_current_version(tmp_path: Path) -> None:
    from app.store.settings import VERSION

    save(Settings(), tmp_path / "s.json")
    assert json.loads((tmp_path / "s.json").read_text())["version"] == VERSION
