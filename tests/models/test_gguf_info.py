"""Inspecting GGUF files: the real default model, and small GGUFs written with the gguf package."""

from __future__ import annotations

from pathlib import Path

import gguf
import numpy as np
import pytest

from models import gguf_info
from models.embedded import ensure_embedded
from models.gguf_info import check_loadable, inspect
from models.types import ModelError


def write_gguf(path: Path, arch: str = "qwen2", *, tensor_values: int = 4096) -> Path:
    writer = gguf.GGUFWriter(str(path), arch)
    writer.add_name("Tiny test model")
    writer.add_context_length(256)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_chat_template("{{ messages }}")
    writer.add_tensor("token_embd.weight", np.ones(tensor_values, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_real_default_model() -> None:
    info = inspect(ensure_embedded())
    assert info.architecture == "qwen2"
    assert info.quantization == "Q4_K_M"
    assert info.size_label == "1.5B"
    assert info.context_length == 32768
    assert info.has_chat_template
    assert 1.5e9 < info.parameter_count < 2e9


def test_small_gguf(tmp_path: Path) -> None:
    info = inspect(write_gguf(tmp_path / "tiny.gguf"))
    assert (info.architecture, info.name, info.context_length, info.parameter_count) == (
        "qwen2",
        "Tiny test model",
        256,
        4096,
    )
    assert info.quantization == "ALL_F32"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="does not exist"):
        inspect(tmp_path / "nothing.gguf")


def test_not_a_gguf(tmp_path: Path) -> None:
    path = tmp_path / "notes.gguf"
    path.write_text("these are my notes, not a model")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        inspect(path)


def test_truncated_download(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "tiny.gguf", tensor_values=100_000)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 50_000])
    with pytest.raises(ModelError, match="shorter than its header says"):
        inspect(path)


def test_truncated_header(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "tiny.gguf")
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ModelError, match="damaged or incomplete"):
        inspect(path)


def test_corrupt_counts(tmp_path: Path) -> None:
    path = tmp_path / "bad.gguf"
    path.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + (2**62).to_bytes(8, "little") * 2)
    with pytest.raises(ModelError, match="damaged"):
        inspect(path)


def test_unsupported_version(tmp_path: Path) -> None:
    path = tmp_path / "old.gguf"
    path.write_bytes(b"GGUF" + (1).to_bytes(4, "little") + bytes(16))
    with pytest.raises(ModelError, match="version 1"):
        inspect(path)


def test_architecture_the_bundled_llama_cpp_cannot_run(tmp_path: Path) -> None:
    info = inspect(write_gguf(tmp_path / "alien.gguf", arch="notarealarch"))
    with pytest.raises(ModelError, match=r"'notarealarch' model, an architecture this version of llama\.cpp"):
        check_loadable(info, 512)
    check_loadable(inspect(write_gguf(tmp_path / "qwen.gguf")), 512)  # a known one passes


def test_not_enough_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = inspect(ensure_embedded())
    monkeypatch.setattr(gguf_info, "available_memory_bytes", lambda: 512 * 1024 * 1024)
    with pytest.raises(ModelError, match=r"needs about 1\.\d GiB of memory but only 0\.5 GiB is free"):
        check_loadable(info, 4096)
