"""Find GGUF files the user already has: the Hugging Face cache and PAL Studio's models folder."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from models.paths import models_dir


@dataclass(frozen=True)
class FoundModel:
    path: Path
    source: str  # "models folder" or "Hugging Face cache"
    size_bytes: int


def hugging_face_cache() -> Path:
    if "HF_HUB_CACHE" in os.environ:
        return Path(os.environ["HF_HUB_CACHE"])
    home = os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    return Path(home) / "hub"


def discover(extra_folders: tuple[Path, ...] = ()) -> list[FoundModel]:
    """GGUF files in the models folder (and below), the HF cache's snapshots and `extra_folders`."""
    found: dict[Path, FoundModel] = {}
    places = [(models_dir(), "models folder"), *((folder, "folder") for folder in extra_folders)]
    for folder, source in places:
        for path in sorted(folder.rglob("*.gguf")) if folder.is_dir() else []:
            _add(found, path, source)
    cache = hugging_face_cache()
    if cache.is_dir():
        for path in sorted(cache.glob("models--*/snapshots/*/**/*.gguf")):
            _add(found, path, "Hugging Face cache")
    return sorted(found.values(), key=lambda model: model.path.name.lower())


def _add(found: dict[Path, FoundModel], path: Path, source: str) -> None:
    try:
        real = path.resolve(strict=True)
        size = real.stat().st_size
    except OSError:
        return  # a dangling cache link
    if ".cache" in path.parts and source != "Hugging Face cache":
        return  # huggingface_hub's bookkeeping inside a download folder
    found.setdefault(real, FoundModel(path, source, size))
