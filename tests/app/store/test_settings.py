from __future__ import annotations

from pathlib import Path

import pytest

from app.store.settings import Settings, load, save


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
    assert Settings(n_ctx=8192).model_differs(Settings())
    assert not Settings(temperature=0.5).model_differs(Settings())
