"""Assembling a model from chunks, on a small fake chunk set (real files, real hashing)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from models.assembly import assemble, verified
from models.types import ModelError


def make_chunks(folder: Path, parts: list[bytes]) -> list[Path]:
    paths = []
    for i, part in enumerate(parts, 1):
        path = folder / f"part{i:02d}.bin"
        path.write_bytes(part)
        paths.append(path)
    return paths


PARTS = [b"GGUF" + bytes(range(256)) * 40, bytes(range(255, -1, -1)) * 50, b"tail"]
WHOLE = b"".join(PARTS)
SHA = hashlib.sha256(WHOLE).hexdigest()


def test_assembles_in_order_with_progress(tmp_path: Path) -> None:
    chunks = make_chunks(tmp_path, PARTS)
    seen: list[tuple[int, int]] = []
    target = tmp_path / "out" / "model.gguf"
    assemble(chunks, target, size=len(WHOLE), sha256=SHA, progress=lambda d, t: seen.append((d, t)))
    assert target.read_bytes() == WHOLE
    assert seen[-1] == (len(WHOLE), len(WHOLE))
    assert verified(target, len(WHOLE), SHA)


def test_verified_file_is_not_hashed_again(tmp_path: Path) -> None:
    chunks = make_chunks(tmp_path, PARTS)
    target = tmp_path / "model.gguf"
    assemble(chunks, target, size=len(WHOLE), sha256=SHA)
    for chunk in chunks:
        chunk.unlink()  # a second call must not need the chunks at all
    assert assemble(chunks, target, size=len(WHOLE), sha256=SHA) == target


def test_corrupted_chunk_is_refused(tmp_path: Path) -> None:
    bad = [PARTS[0], PARTS[1][:-1] + b"\x01", PARTS[2]]
    target = tmp_path / "model.gguf"
    with pytest.raises(ModelError, match="does not match its published checksum"):
        assemble(make_chunks(tmp_path, bad), target, size=len(WHOLE), sha256=SHA)
    assert not target.exists()
    assert list(tmp_path.glob("*.partial")) == []


def test_wrong_size_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="should be"):
        assemble(make_chunks(tmp_path, PARTS[:2]), tmp_path / "m.gguf", size=len(WHOLE), sha256=SHA)


def test_missing_chunk_is_named(tmp_path: Path) -> None:
    chunks = make_chunks(tmp_path, PARTS)
    chunks[1].unlink()
    with pytest.raises(ModelError, match=r"part02\.bin"):
        assemble(chunks, tmp_path / "m.gguf", size=len(WHOLE), sha256=SHA)


def test_a_changed_file_is_verified_again(tmp_path: Path) -> None:
    target = tmp_path / "model.gguf"
    assemble(make_chunks(tmp_path, PARTS), target, size=len(WHOLE), sha256=SHA)
    target.write_bytes(WHOLE[:-1] + b"X")
    assert not verified(target, len(WHOLE), SHA)
