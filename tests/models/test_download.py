"""Downloads through huggingface_hub against a local stand-in hub (there is no internet here)."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest

from models.assembly import verified
from models.download import DownloadCancelled, download
from models.types import ModelError

from .hub_server import HubState, serve

# Larger than huggingface_hub's 10 MiB write chunks, so an interrupted transfer leaves bytes to resume from.
CONTENT = os.urandom(24 * 1024 * 1024 + 17)
REPO, NAME = "someone/tiny-GGUF", "tiny-Q4_K_M.gguf"


def state(**options: object) -> HubState:
    return HubState(files={f"{REPO}/{NAME}": CONTENT}, **options)  # type: ignore[arg-type]


def test_download_with_progress(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    with serve(state()) as endpoint:
        path = download(REPO, NAME, endpoint=endpoint, folder=tmp_path, progress=lambda d, t: seen.append((d, t)))
    assert path.read_bytes() == CONTENT
    assert seen[-1] == (len(CONTENT), len(CONTENT))
    assert verified(path, len(CONTENT), hashlib.sha256(CONTENT).hexdigest())
    hub = state()
    with serve(hub) as endpoint:  # a second call finds the verified file and fetches nothing
        assert download(REPO, NAME, endpoint=endpoint, folder=tmp_path) == path
    assert [method for method, _path, _range in hub.requests if method == "GET"] == []


def test_interrupted_transfer_resumes(tmp_path: Path) -> None:
    hub = state(cut_first_get_at=15_000_000)
    with serve(hub) as endpoint:
        try:
            path = download(REPO, NAME, endpoint=endpoint, folder=tmp_path)
        except ModelError:  # the library may give up on the first attempt: the next call resumes
            path = download(REPO, NAME, endpoint=endpoint, folder=tmp_path)
    assert hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(CONTENT).digest()
    ranges = [r for method, _path, r in hub.requests if method == "GET" and r]
    assert ranges and ranges[0] != "bytes=0-", hub.requests


def test_cancel_then_resume(tmp_path: Path) -> None:
    cancel = threading.Event()

    def on_progress(done: int, _total: int) -> None:
        if done > 5_000_000:
            cancel.set()

    hub = state()
    with serve(hub) as endpoint:
        with pytest.raises(DownloadCancelled):
            download(REPO, NAME, endpoint=endpoint, folder=tmp_path, progress=on_progress, cancel=cancel)
        assert not (tmp_path / NAME).exists()
        cancel.clear()
        path = download(REPO, NAME, endpoint=endpoint, folder=tmp_path, cancel=cancel)
    assert path.read_bytes() == CONTENT
    assert any(r and r != "bytes=0-" for method, _p, r in hub.requests if method == "GET"), hub.requests


def test_checksum_mismatch_is_refused(tmp_path: Path) -> None:
    with serve(state(etag_override="0" * 64)) as endpoint, pytest.raises(ModelError, match="checksum"):
        download(REPO, NAME, endpoint=endpoint, folder=tmp_path)
    assert not (tmp_path / NAME).exists()


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with serve(state()) as endpoint, pytest.raises(ModelError, match="refused"):
        download(REPO, "nope.gguf", endpoint=endpoint, folder=tmp_path)


@pytest.mark.parametrize("entry_id", ["qwen2.5-math-1.5b-instruct-q4_k_m", "qwen2.5-1.5b-instruct-q4_k_m"])
def test_the_recommended_math_models_download_from_their_catalog_entry(tmp_path: Path, entry_id: str) -> None:
    from models import catalog

    entry = next(d for d in catalog.load().downloads if d.id == entry_id)
    assert entry.license == "Apache-2.0" and "GSM8K" in entry.good_for and entry.ram_gb <= 2.5
    small = os.urandom(1 << 20)
    with serve(HubState(files={f"{entry.repo}/{entry.file_name}": small})) as endpoint:
        path = download(entry.repo, entry.file_name, endpoint=endpoint, folder=tmp_path)
    assert path.name == entry.file_name and path.read_bytes() == small
