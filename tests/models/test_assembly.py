"""Assembling a model from chunks, on a small fake chunk set (real files, real hashing)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from models.assembly import assemble, move_verified, verified, verify_file
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


def test_every_missing_chunk_is_named(tmp_path: Path) -> None:
    chunks = make_chunks(tmp_path, PARTS)
    chunks[0].unlink()
    chunks[2].unlink()
    with pytest.raises(ModelError) as caught:
        assemble(chunks, tmp_path / "m.gguf", size=len(WHOLE), sha256=SHA)
    assert str(caught.value) == f"model parts are missing: {chunks[0]}, {chunks[2]}; reinstall PAL Studio"


def test_a_refusal_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"^model\.gguf does not match"):
        assemble(make_chunks(tmp_path, [WHOLE[:-1] + b"!"]), tmp_path / "model.gguf", size=len(WHOLE), sha256=SHA)
    with pytest.raises(ModelError, match=rf"^m\.gguf is 4 bytes but should be {len(WHOLE):,}"):
        assemble(make_chunks(tmp_path, [b"GGUF"]), tmp_path / "a" / "b" / "m.gguf", size=len(WHOLE), sha256=SHA)


def test_the_record_beside_the_file_keeps_its_format(tmp_path: Path) -> None:
    """Every user's record would stop matching (and 1 GB be hashed again) if this changed."""
    target = tmp_path / "deep" / "er" / "model.gguf"  # folders made as needed
    assemble(make_chunks(tmp_path, PARTS), target, size=len(WHOLE), sha256=SHA)
    record = json.loads((tmp_path / "deep" / "er" / "model.gguf.verified.json").read_text())
    stat = target.stat()
    assert record == {"size": len(WHOLE), "sha256": SHA, "file_size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def test_a_downloaded_file_is_verified_recorded_and_moved_with_its_record(tmp_path: Path) -> None:
    partial = tmp_path / "model.gguf.download"
    partial.write_bytes(WHOLE)
    seen: list[tuple[int, int]] = []
    verify_file(partial, size=len(WHOLE), sha256=SHA, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(len(WHOLE), len(WHOLE))] and verified(partial, len(WHOLE), SHA)
    verify_file(partial, size=len(WHOLE), sha256=SHA, progress=lambda d, t: seen.append((d, t)))
    assert len(seen) == 1  # recorded: not hashed again
    target = tmp_path / "model.gguf"
    move_verified(partial, target)
    assert verified(target, len(WHOLE), SHA) and not partial.exists()
    assert not (tmp_path / "model.gguf.download.verified.json").exists()


def test_a_download_that_does_not_match_is_refused_unrecorded(tmp_path: Path) -> None:
    partial = tmp_path / "model.gguf.download"
    partial.write_bytes(WHOLE[:-1] + b"?")
    with pytest.raises(ModelError, match=r"^model\.gguf\.download does not match"):
        verify_file(partial, size=len(WHOLE), sha256=SHA)
    partial.write_bytes(WHOLE[:-1])
    with pytest.raises(ModelError, match="should be"):
        verify_file(partial, size=len(WHOLE), sha256=SHA)
    assert not verified(partial, len(WHOLE), SHA)
    assert list(tmp_path.glob("*.verified.json")) == []


def test_a_file_larger_than_one_read_block_is_counted_whole(tmp_path: Path) -> None:
    big = bytes(range(256)) * (5 * 4096)  # 5 MiB: two read blocks
    partial = tmp_path / "big.gguf.download"
    partial.write_bytes(big)
    verify_file(partial, size=len(big), sha256=hashlib.sha256(big).hexdigest())
    assert verified(partial, len(big), hashlib.sha256(big).hexdigest())
