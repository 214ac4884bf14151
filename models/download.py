"""Download a GGUF model from the Hugging Face hub: progress, resume, cancel, checksum.

Built on `huggingface_hub`: its URL scheme and metadata request, and its `http_get` transfer
(retries, Range requests, progress through a tqdm class). Since version 1 its `hf_hub_download`
discards a partial file when a call fails, so the partial file is kept here instead
(`NAME.partial`, with the hub's ETag beside it): a cancelled or interrupted download resumes on
the next call. The finished file is checked against the catalog's sha256 or, failing that, the
sha256 the hub publishes for the file (its ETag).
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from models.assembly import Progress, move_verified, verified, verify_file
from models.paths import models_dir
from models.types import ModelError

_SHA256 = re.compile(r"[0-9a-f]{64}")


class DownloadCancelled(ModelError):
    """The user cancelled; the partial file stays so the next attempt resumes."""


def download(
    repo: str,
    file_name: str,
    *,
    sha256: str | None = None,
    progress: Progress | None = None,
    cancel: threading.Event | None = None,
    endpoint: str | None = None,
    folder: Path | None = None,
) -> Path:
    """Fetch `file_name` from the hub repository `repo` into the models folder; return its path."""
    import huggingface_hub
    from huggingface_hub.errors import HfHubHTTPError
    from huggingface_hub.file_download import http_get

    folder = folder or models_dir() / repo.replace("/", "--")
    target = folder / file_name
    partial = target.with_name(target.name + ".partial")
    etag_file = target.with_name(target.name + ".partial.etag")
    try:
        metadata = huggingface_hub.get_hf_file_metadata(
            huggingface_hub.hf_hub_url(repo, file_name, endpoint=endpoint), endpoint=endpoint
        )
        expected = sha256 or (metadata.etag if metadata.etag and _SHA256.fullmatch(metadata.etag) else None)
        if expected and metadata.size is not None and verified(target, metadata.size, expected):
            return target
        folder.mkdir(parents=True, exist_ok=True)
        if not etag_file.exists() or etag_file.read_text() != (metadata.etag or ""):
            partial.unlink(missing_ok=True)  # a different version of the file: start over
            etag_file.write_text(metadata.etag or "")
        resume = partial.stat().st_size if partial.exists() else 0
        with partial.open("ab") as out:
            http_get(
                metadata.location,
                out,
                resume_size=resume,
                expected_size=metadata.size,
                tqdm_class=_progress_class(progress, cancel),
            )
    except DownloadCancelled:
        raise
    except HfHubHTTPError as exc:
        raise ModelError(f"the hub refused {repo}/{file_name}: {exc}") from exc
    except OSError as exc:  # connection errors (httpx's too), a full disk
        raise ModelError(f"downloading {repo}/{file_name} failed: {exc}; try again to resume") from exc
    except Exception as exc:  # the HTTP client's own transport errors
        if type(exc).__module__.startswith(("httpx", "httpcore")):
            raise ModelError(f"downloading {repo}/{file_name} failed: {exc}; try again to resume") from exc
        raise
    if expected and metadata.size is not None:
        try:
            verify_file(partial, size=metadata.size, sha256=expected)
        except ModelError:
            partial.unlink(missing_ok=True)
            raise
        move_verified(partial, target)
    else:
        os.replace(partial, target)
    etag_file.unlink(missing_ok=True)
    return target


def _progress_class(progress: Progress | None, cancel: threading.Event | None) -> type[tqdm]:  # type: ignore[type-arg]
    class _Progress(tqdm):  # type: ignore[type-arg]
        """Reports bytes to `progress` and stops the transfer when `cancel` is set."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)
            self.done = int(kwargs.get("initial") or 0)
            self.expected = int(kwargs.get("total") or 0)

        def update(self, n: float | None = 1) -> bool | None:
            if cancel is not None and cancel.is_set():
                raise DownloadCancelled("download cancelled; starting it again resumes where it stopped")
            self.done += int(n or 0)
            if progress is not None:
                progress(self.done, self.expected)
            return None

    return _Progress
