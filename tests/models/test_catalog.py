from __future__ import annotations

import pytest

from models import catalog


def test_catalog_parses_with_one_default() -> None:
    cat = catalog.load()
    assert cat.default.id == "qwen2.5-coder-1.5b-instruct-q4_k_m"
    assert cat.default.size_bytes == 1_117_320_768
    assert len(cat.default.sha256) == 64
    assert all(m.license for m in cat.embedded) and all(d.license for d in cat.downloads)
    assert all("/" in d.repo and d.file_name.endswith(".gguf") for d in cat.downloads)


def test_default_chunks_are_installed() -> None:
    paths = catalog.load().default.chunk_paths()
    assert len(paths) == 22
    assert all(p.is_file() for p in paths)
    assert sum(p.stat().st_size for p in paths) == catalog.load().default.size_bytes


def test_two_defaults_are_rejected() -> None:
    raw = {
        "embedded": [
            {**_entry("a"), "default": True},
            {**_entry("b"), "default": True},
        ],
        "downloads": [],
    }
    with pytest.raises(ValueError, match="exactly one"):
        catalog.parse(raw)


def _entry(model_id: str) -> dict[str, object]:
    return {
        "id": model_id, "title": model_id, "file_name": f"{model_id}.gguf", "size_bytes": 1, "sha256": "0" * 64,
        "chunks": {"module": "m{n}", "file": "d{n}", "count": 1}, "install": "", "source": "", "license": "x",
        "ram_gb": 1.0, "good_for": "",
    }  # fmt: skip
