"""Assemble a model file from ordered byte chunks and verify it once.

The embedded models arrive as third-party chunk packages, so the assembled file is checked
against a pinned size and sha256 before first use and refused if it differs. A small record
beside the file (size, modification time, digest) lets later starts skip re-hashing 1 GB.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from models.types import ModelError

Progress = Callable[[int, int], None]  # (bytes done, bytes total)
_BLOCK = 4 * 1024 * 1024


def verified(path: Path, size: int, sha256: str) -> bool:
    """True if `path` was verified before and has not changed since (no hashing)."""
    try:
        record = json.loads(_record_path(path).read_text())
        stat = path.stat()
    except (OSError, ValueError):
        return False
    return isinstance(record, dict) and record == _record(stat, size, sha256)


def assemble(chunks: Sequence[Path], target: Path, *, size: int, sha256: str, progress: Progress | None = None) -> Path:
    """Concatenate `chunks` into `target` (atomically), verify size and digest, record success.

    Raises `ModelError` with a message for the user if a chunk is missing or the result does not
    match; nothing is left at `target` then.
    """
    if verified(target, size, sha256):
        return target
    missing = [str(c) for c in chunks if not c.is_file()]
    if missing:
        raise ModelError(f"model parts are missing: {', '.join(missing)}; reinstall PAL Studio")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    done = 0
    try:
        with temporary.open("wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as part:
                    while block := part.read(_BLOCK):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if progress:
                            progress(done, size)
            out.flush()
            os.fsync(out.fileno())
        _check(done, digest.hexdigest(), size, sha256, target.name)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    _record_path(target).write_text(json.dumps(_record(target.stat(), size, sha256)))
    return target


def verify_file(path: Path, *, size: int, sha256: str, progress: Progress | None = None) -> None:
    """Hash an existing file (e.g. a download) and record it, or raise `ModelError`."""
    if verified(path, size, sha256):
        return
    digest = hashlib.sha256()
    done = 0
    with path.open("rb") as handle:
        while block := handle.read(_BLOCK):
            digest.update(block)
            done += len(block)
            if progress:
                progress(done, size)
    _check(done, digest.hexdigest(), size, sha256, path.name)
    _record_path(path).write_text(json.dumps(_record(path.stat(), size, sha256)))


def move_verified(source: Path, target: Path) -> None:
    """Rename a verified file and its record together (a rename keeps the recorded mtime)."""
    os.replace(source, target)
    os.replace(_record_path(source), _record_path(target))


def _check(size: int, digest: str, want_size: int, want_sha256: str, name: str) -> None:
    if size != want_size:
        raise ModelError(f"{name} is {size:,} bytes but should be {want_size:,}: refusing to use it")
    if digest != want_sha256:
        raise ModelError(f"{name} does not match its published checksum (sha256 {digest}): refusing to use it")


def _record_path(path: Path) -> Path:
    return path.with_name(path.name + ".verified.json")


def _record(stat: os.stat_result, size: int, sha256: str) -> dict[str, object]:
    return {"size": size, "sha256": sha256, "file_size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
