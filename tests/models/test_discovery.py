from __future__ import annotations

from pathlib import Path

import pytest

from models.discovery import discover


def test_finds_models_folder_and_hugging_face_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, cache = tmp_path / "data", tmp_path / "hf"
    monkeypatch.setenv("PAL_STUDIO_DATA_DIR", str(data))
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    (data / "models" / "mine").mkdir(parents=True)
    (data / "models" / "mine" / "a.gguf").write_bytes(b"GGUF1")
    (data / "models" / "skip.txt").write_text("x")
    blob = cache / "models--org--repo" / "blobs" / "abc"
    blob.parent.mkdir(parents=True)
    blob.write_bytes(b"GGUF22")
    snapshot = cache / "models--org--repo" / "snapshots" / "123"
    snapshot.mkdir(parents=True)
    (snapshot / "b.gguf").symlink_to(blob)
    (snapshot / "dangling.gguf").symlink_to(cache / "missing")
    found = discover()
    assert [(m.path.name, m.source, m.size_bytes) for m in found] == [
        ("a.gguf", "models folder", 5),
        ("b.gguf", "Hugging Face cache", 6),
    ]
